import sharp from 'sharp';
import type { WordTiming } from '../types.ts';
import { FFMPEG } from '../util/media.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

type VideoBox = { x: number; y: number; w: number; h: number };

/**
 * Mouth motion of a rendered video: the mean pixel change of the mouth region between samples 1/15 s apart,
 * inside spoken words and in the silences (before the first word, between sentences, after the last). A
 * talking actor moves a lot in the first and little in the second. `mouthAt` gives the mouth's box in the video
 * at a time (the camera moves it).
 */
export async function measureMouthMotion(input: {
  videoPath: string;
  words: readonly WordTiming[];
  durationSec: number;
  mouthAt: (t: number) => VideoBox;
  width?: number;
  height?: number;
}): Promise<{ speech: number; silence: number; samples: { speech: number; silence: number } }> {
  const width = input.width ?? 720;
  const height = input.height ?? 1280;
  const fps = 15;
  const { stdout: raw } = await promisify(execFile)(
    FFMPEG,
    ['-v', 'error', '-i', input.videoPath, '-vf', `fps=${fps},format=gray`, '-f', 'rawvideo', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 1 << 30, timeout: 120_000 },
  );
  const frameSize = width * height;
  const frames = Math.floor(raw.length / frameSize);
  const crop = async (i: number, box: VideoBox) => {
    const x = Math.max(0, Math.min(width - 2, Math.round(box.x)));
    const y = Math.max(0, Math.min(height - 2, Math.round(box.y)));
    const w = Math.max(2, Math.min(width - x, Math.round(box.w)));
    const h = Math.max(2, Math.min(height - y, Math.round(box.h)));
    // Compared at a fixed size so a zooming camera does not count as motion by itself.
    return sharp(raw.subarray(i * frameSize, (i + 1) * frameSize), { raw: { width, height, channels: 1 } })
      .extract({ left: x, top: y, width: w, height: h })
      .resize(48, 32, { fit: 'fill' })
      .raw()
      .toBuffer();
  };
  const inWord = (t: number) => input.words.some((w) => t >= w.startSec + 0.03 && t <= w.endSec - 0.03);
  const silent = (t: number) => !input.words.some((w) => t >= w.startSec - 0.12 && t <= w.endSec + 0.12);
  let sp = 0;
  let spN = 0;
  let si = 0;
  let siN = 0;
  for (let i = 1; i < frames; i++) {
    const t = i / fps;
    const a = t - 1 / fps;
    const speech = inWord(t) && inWord(a);
    const silence = silent(t) && silent(a) && t < input.durationSec - 0.05;
    if (!speech && !silence) continue;
    const box = input.mouthAt(t);
    const [p, q] = await Promise.all([crop(i - 1, box), crop(i, box)]);
    let sum = 0;
    for (let j = 0; j < p.length; j++) sum += Math.abs(p[j]! - q[j]!);
    const mean = sum / p.length;
    if (speech) {
      sp += mean;
      spN++;
    } else {
      si += mean;
      siN++;
    }
  }
  return { speech: spN ? sp / spN : 0, silence: siN ? si / siN : 0, samples: { speech: spN, silence: siN } };
}
