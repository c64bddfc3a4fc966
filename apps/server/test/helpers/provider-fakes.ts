import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { resetEngineConfig } from '../../src/media/engine.ts';

/**
 * What the Realistic tests' provider fakes answer with, and the environment that points the engine at them: one
 * copy for every file that runs Realistic against local fakes.
 */

/**
 * A voice take (an MP3 sine) and a talking-actor clip (an H.264 test pattern, 288x512) `seconds` long, made with
 * ffmpeg in `dir`. `yuv420p: false` leaves the encoder's own pixel format.
 */
export async function fakeVoiceAndClip(
  dir: string,
  seconds: number,
  opts: { yuv420p?: boolean } = {},
): Promise<{ mp3: Buffer; clip: Buffer }> {
  const ff = (args: string[], out: string) =>
    promisify(execFile)('ffmpeg', ['-y', '-v', 'error', ...args, out]).then(() => readFile(out));
  const mp3 = await ff(
    ['-f', 'lavfi', '-i', `sine=frequency=200:duration=${seconds}`, '-ar', '44100'],
    path.join(dir, 'v.mp3'),
  );
  const clip = await ff(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=288x512:rate=25:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      ...(opts.yuv420p === false ? [] : ['-pix_fmt', 'yuv420p']),
    ],
    path.join(dir, 'avatar.mp4'),
  );
  return { mp3, clip };
}

/** A plain-colour PNG, by default the 2:3 portrait gpt-image-1 answers (1024x1536). */
export const plainPng = (
  background: string | { r: number; g: number; b: number },
  width = 1024,
  height = 1536,
): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Puts back the variables `names` as they were in `saved` (unset when they were) and rebuilds the engine config. */
export function restoreEnv(saved: NodeJS.ProcessEnv, names: readonly string[]): void {
  for (const k of names) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEngineConfig();
}
