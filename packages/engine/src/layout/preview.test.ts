import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, renderCaptionPreview } from './preview.ts';

/** Pixels close to the highlight yellow (#FFD23F): only the spoken word of a `highlight` caption has it. */
async function yellowPixels(file: string): Promise<number> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < info.width * info.height * 3; i += 3)
    if (data[i]! > 230 && data[i + 1]! > 180 && data[i + 1]! < 230 && data[i + 2]! < 110) n++;
  return n;
}

describe('renderCaptionPreview', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'preview-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('draws the caption through libass: the highlight preview shows its yellow word, boxed has none', async () => {
    const highlight = path.join(dir, 'highlight.png');
    const boxed = path.join(dir, 'boxed.png');
    await renderCaptionPreview('highlight', highlight);
    await renderCaptionPreview('boxed', boxed);
    const meta = await sharp(highlight).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([PREVIEW_WIDTH, PREVIEW_HEIGHT, 'png']);
    expect(await yellowPixels(highlight)).toBeGreaterThan(150);
    expect(await yellowPixels(boxed)).toBeLessThan(10);
  }, 60_000);
});
