import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../util/process.ts';
import { y4mFrame } from './frames.ts';

/** An RGBA picture of vertical stripes two pixels wide, one per colour. */
function picture(colours: Array<[number, number, number]>, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colours[Math.floor(x / 2)]!;
      out.set([r, g, b, 255], (y * width + x) * 4);
    }
  return out;
}

describe('pose frames as Y4M', () => {
  it('converts RGBA to limited-range BT.601 yuv420p as ffmpeg does', () => {
    const rgba = picture(
      [
        [255, 255, 255],
        [0, 0, 0],
        [255, 0, 0],
        [0, 0, 255],
      ],
      8,
      2,
    );
    const frame = y4mFrame(rgba, 8, 2);
    const header = 'YUV4MPEG2 W8 H2 F30:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\nFRAME\n';
    expect(frame.subarray(0, header.length).toString()).toBe(header);
    const body = frame.subarray(header.length);
    expect(body.length).toBe(8 * 2 + 2 * 4);
    expect([...body.subarray(0, 8)]).toEqual([235, 235, 16, 16, 82, 82, 41, 41]);
    expect([...body.subarray(16, 20)]).toEqual([128, 128, 90, 240]);
    expect([...body.subarray(20, 24)]).toEqual([128, 128, 240, 110]);
  });

  it('gives every pixel its luma and every 2x2 block its chroma, on every row', () => {
    const width = 6;
    const height = 4;
    const rgba = Buffer.alloc(width * height * 4);
    for (let p = 0; p < width * height; p++) rgba.set([(p * 37) % 256, (p * 91) % 256, (p * 53) % 256, 255], p * 4);
    const frame = y4mFrame(rgba, width, height);
    const body = frame.subarray(frame.indexOf('FRAME\n') + 6);
    const px = (x: number, y: number) => [...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const [r, g, b] = px(x, y) as [number, number, number];
        expect(body[y * width + x]).toBe(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
      }
    const cw = width / 2;
    for (let cy = 0; cy < height / 2; cy++)
      for (let cx = 0; cx < cw; cx++) {
        const block = [px(2 * cx, 2 * cy), px(2 * cx + 1, 2 * cy), px(2 * cx, 2 * cy + 1), px(2 * cx + 1, 2 * cy + 1)];
        const [r, g, b] = [0, 1, 2].map((c) => (block.reduce((sum, v) => sum + v[c]!, 0) + 2) >> 2) as [
          number,
          number,
          number,
        ];
        const u = width * height + cy * cw + cx;
        expect(body[u]).toBe(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
        expect(body[u + cw * (height / 2)]).toBe(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
      }
  });

  it('is read by ffmpeg as one 720x1280 yuv420p frame', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-y4m-'));
    try {
      const file = path.join(dir, 'pose.y4m');
      await writeFile(file, y4mFrame(picture(Array(360).fill([40, 120, 200]), 720, 1280), 720, 1280));
      const { stdout } = await runProcess('ffprobe', [
        ...['-v', 'error', '-count_frames', '-show_entries', 'stream=width,height,pix_fmt,nb_read_frames'],
        ...['-of', 'csv=p=0', file],
      ]);
      expect(stdout.trim()).toBe('720,1280,yuv420p,1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
