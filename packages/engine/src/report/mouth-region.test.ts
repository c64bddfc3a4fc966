import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoLayout } from '../layout/index.ts';
import { y4mFrame } from '../motion/frames.ts';
import { runProcess } from '../util/process.ts';
import { mouthRegion, mouthTap } from './index.ts';

/** Only what the mouth samples read of a layout: its size, the mouth box and the camera's views of it. */
function layoutWithMouths(mouths: Array<{ x: number; y: number; w: number; h: number }>): VideoLayout {
  const [still, ...seen] = mouths;
  return {
    width: 720,
    height: 1280,
    mouth: still!,
    views: seen.map((m, i) => ({ t: i / 15, face: m, product: null, mouth: m })),
  } as unknown as VideoLayout;
}

async function grey(input: string, filters: string): Promise<Buffer> {
  const out = `${input}.${Math.random().toString(36).slice(2)}.gray`;
  await runProcess('ffmpeg', ['-v', 'error', '-i', input, '-vf', `${filters},format=gray`, '-f', 'rawvideo', out]);
  return readFile(out);
}

describe('the mouth samples of the quality report', () => {
  let dir: string;
  let frame: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-mouth-'));
    const rgba = Buffer.alloc(720 * 1280 * 4);
    for (let i = 0; i < 720 * 1280; i++) {
      const x = i % 720;
      const y = Math.floor(i / 720);
      rgba[i * 4] = (x * 7 + y * 3) % 256;
      rgba[i * 4 + 1] = (x * y) % 251;
      rgba[i * 4 + 2] = (x ^ y) % 256;
      rgba[i * 4 + 3] = 255;
    }
    frame = path.join(dir, 'frame.y4m');
    await writeFile(frame, y4mFrame(rgba, 720, 1280));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('covers every place the mouth is shown, with a margin, on even offsets', () => {
    const mouths = [
      { x: 320, y: 500, w: 80, h: 40 },
      { x: 300, y: 470, w: 96, h: 48 },
      { x: 410, y: 610, w: 160, h: 70 },
    ];
    const { grey: g, crop } = mouthRegion(layoutWithMouths(mouths));
    for (const m of mouths) {
      expect(g.x * 4).toBeLessThanOrEqual(m.x - 8);
      expect(g.y * 4).toBeLessThanOrEqual(m.y - 8);
      expect((g.x + g.w) * 4).toBeGreaterThanOrEqual(m.x + m.w + 8);
      expect((g.y + g.h) * 4).toBeGreaterThanOrEqual(m.y + m.h + 8);
    }
    expect(crop).toEqual({ x: g.x * 4, y: g.y * 4, w: g.w * 4, h: g.h * 4 });
    expect([crop.x % 2, crop.y % 2, crop.w % 2, crop.h % 2]).toEqual([0, 0, 0, 0]);
    // Far smaller than the whole grey picture (180x320).
    expect(g.w * g.h).toBeLessThan((180 * 320) / 8);
  });

  it('makes the same grey pixels as shrinking the whole frame, where the mouth can be', async () => {
    for (const mouths of [
      [{ x: 320, y: 500, w: 80, h: 40 }],
      // A close-up can push the mouth against the frame's edge.
      [
        { x: 320, y: 500, w: 80, h: 40 },
        { x: 0, y: 0, w: 150, h: 60 },
      ],
    ]) {
      const layout = layoutWithMouths(mouths);
      const whole = await grey(frame, 'scale=180:320');
      const part = await grey(frame, mouthTap(layout));
      const g = mouthRegion(layout).grey;
      expect(part.length).toBe(g.w * g.h);
      // Inside the margin (two grey pixels each side, which only the shrinking filter's edge sees), where the
      // mouth boxes are and the samples are read.
      let differing = 0;
      for (let y = 2; y < g.h - 2; y++)
        for (let x = 2; x < g.w - 2; x++) if (part[y * g.w + x] !== whole[(g.y + y) * 180 + g.x + x]) differing++;
      expect(differing).toBe(0);
    }
  });
});
