import { readFile } from 'node:fs/promises';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';

/**
 * For tests: writes `out` with ffmpeg from generated sources (lavfi, e.g. `sine=duration=1`) and the output `args`,
 * and returns its bytes, so the provider tests need no media files checked in.
 */
export async function generatedMedia(out: string, sources: string[], args: string[] = []): Promise<Buffer> {
  const inputs = sources.flatMap((source) => ['-f', 'lavfi', '-i', source]);
  await runProcess(FFMPEG, ['-y', '-v', 'error', ...inputs, ...args, out], { timeoutMs: 60_000 });
  return readFile(out);
}
