import { accessSync, chmodSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { parseEbur128 } from './ebur128.ts';

/**
 * The quality report's loudness meter: FFmpeg's EBU R128 filter (integrated loudness, true peak) over the
 * finished MP4's own AAC track.
 *
 * Debian's ffmpeg is linked against 215 shared libraries and spends ~0.1 s of CPU resolving their symbols before
 * it reads a byte: as much as the metering itself, paid once per video. A statically linked ffprobe
 * (@ffprobe-installer, an optional dependency for linux x64) starts in ~10 ms and runs the same filter over the
 * same decoder through its lavfi input, so the report meters with it where it is installed and with ffmpeg
 * elsewhere (decision 169).
 */

/** The static ffprobe, executable, or null where the package is not installed (another platform). */
export function staticFfprobe(): string | null {
  if (process.env.HOOKREEL_METER === 'ffmpeg') return null;
  try {
    const pkg = createRequire(import.meta.url).resolve('@ffprobe-installer/linux-x64/package.json');
    const bin = path.join(path.dirname(pkg), 'ffprobe');
    try {
      accessSync(bin, constants.X_OK);
    } catch {
      // The package's postinstall makes it executable; an install that skipped scripts leaves it 0644.
      chmodSync(bin, 0o755);
    }
    return bin;
  } catch {
    return null;
  }
}

let probe: string | null | undefined;
const meterProbe = (): string | null => (probe === undefined ? (probe = staticFfprobe()) : probe);

/**
 * A path as a `movie`/`amovie` source's filename inside a filter graph: escaped once for the option's value
 * (`\`, `'`, `:`) and again for the graph (`\`, `'`, `[`, `]`, `,`, `;`), as FFmpeg's two quoting levels read it.
 */
export function graphFilename(file: string): string {
  const value = file.replace(/[\\':]/g, '\\$&');
  return value.replace(/[\\'[\],;]/g, '\\$&');
}

/** Arguments for one meter run over a video's audio: the static ffprobe's or, without it, ffmpeg's. */
export function meterCommand(videoPath: string, ffprobe: string | null): { cmd: string; args: string[] } {
  // Only the summary is read: the meter's line every 100 ms is logged below the level printed.
  const meter = 'ebur128=peak=true:framelog=verbose';
  if (ffprobe) {
    return {
      cmd: ffprobe,
      args: [
        ...['-hide_banner', '-v', 'info', '-f', 'lavfi', '-i', `amovie=${graphFilename(videoPath)},${meter}`],
        // Counting the packets makes ffprobe read the whole graph, so the meter sees every sample.
        ...['-count_packets', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0'],
      ],
    };
  }
  return {
    cmd: FFMPEG,
    args: [
      ...['-hide_banner', '-nostats', '-protocol_whitelist', 'file', '-vn', '-i', videoPath],
      ...['-af', meter, '-f', 'null', '-'],
    ],
  };
}

/** Integrated loudness (LUFS) and true peak (dBTP) of a video's sound track; null where it is silent. */
export async function meterLoudness(
  videoPath: string,
  signal?: AbortSignal,
): Promise<{ integrated: number | null; truePeak: number | null }> {
  const { cmd, args } = meterCommand(videoPath, meterProbe());
  const { stderr } = await runProcess(cmd, args, { signal, timeoutMs: 120_000 });
  return parseEbur128(stderr);
}
