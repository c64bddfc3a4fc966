import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PhotoFace } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePortrait, stopFaceDetector } from '../photo/index.ts';
import { portraitFixture } from '../photo/fixtures.ts';
import type { ProductPlacer, RegionEditRequest } from '../remote/image-edit.ts';
import { makeMouthStills, mouthStillPrompt } from './mouth-stills.ts';

let dir: string;
let photo: string;
let face: PhotoFace;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mouth-stills-'));
  photo = path.join(dir, 'photo.png');
  await writeFile(photo, await portraitFixture('portrait'));
  const found = await analyzePortrait(photo);
  if (!found.ok) throw new Error(found.message);
  face = found.face;
}, 60_000);
afterAll(async () => {
  await stopFaceDetector();
  await rm(dir, { recursive: true, force: true });
});

/** An editor that paints the whole picture one colour (a model that changed too much), recording what it got. */
function paintingEditor(asked: RegionEditRequest[]): ProductPlacer {
  return {
    provider: 'fake',
    placeProduct: () => Promise.reject(new Error('not asked')),
    async editRegion(req) {
      asked.push(req);
      const m = await sharp(req.imagePath).metadata();
      const w = m.width ?? 1;
      const h = m.height ?? 1;
      await sharp({ create: { width: w, height: h, channels: 3, background: '#00ff00' } })
        .png()
        .toFile(req.outPath);
      return { imagePath: req.outPath, usage: { provider: 'fake', stage: 'placement', model: 'm', images: 1 } };
    },
  };
}

describe('real mouth stills', () => {
  it('keeps only the mouth of each edit: the rest is the photo, pixel for pixel', async () => {
    const asked: RegionEditRequest[] = [];
    const usages: unknown[] = [];
    const stills = await makeMouthStills({
      photoPath: photo,
      face,
      shapes: ['aa', 'oo'],
      editor: paintingEditor(asked),
      outDir: dir,
      onUsage: (u) => void usages.push(u),
    });
    expect(Object.keys(stills)).toEqual(['aa', 'oo']);
    expect(usages).toHaveLength(2);
    expect(asked.map((r) => r.prompt)).toEqual([mouthStillPrompt('aa'), mouthStillPrompt('oo')]);
    // The model sees a 2:3 portrait crop around the mouth (the shape it answers in), and the mask frees the mouth
    // only: transparent at its middle, opaque at the corners.
    const sent = await sharp(asked[0]!.imagePath).metadata();
    const mask = await sharp(asked[0]!.mask).raw().toBuffer({ resolveWithObject: true });
    expect([mask.info.width, mask.info.height]).toEqual([sent.width, sent.height]);
    expect(Math.abs(sent.width! / sent.height! - 2 / 3)).toBeLessThan(0.02);
    const alpha = (x: number, y: number) => mask.data[(y * mask.info.width + x) * mask.info.channels + 3];
    const holes = [...Array(mask.info.width * mask.info.height).keys()].filter(
      (i) => mask.data[i * mask.info.channels + 3] === 0,
    ).length;
    expect(holes).toBeGreaterThan(0);
    expect(holes).toBeLessThan(mask.info.width * mask.info.height * 0.2);
    expect(alpha(2, 2)).toBe(255);
    const m = face.mouthBox;
    const [mx, my] = [Math.round(m.x + m.width / 2), Math.round(m.y + m.height / 2)];

    const original = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const still = await sharp(stills.aa!).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([still.info.width, still.info.height]).toEqual([original.info.width, original.info.height]);
    const px = (b: Buffer, x: number, y: number) => [
      ...b.subarray((y * still.info.width + x) * 3, (y * still.info.width + x) * 3 + 3),
    ];
    // The mouth is the edit's; the eyes, the forehead and the corners are the photo's.
    expect(px(still.data, mx, my)).toEqual([0, 255, 0]);
    const eye = face.box;
    for (const [x, y] of [
      [2, 2],
      [Math.round(eye.x + eye.width / 2), Math.round(eye.y + eye.height * 0.2)],
    ] as const) {
      expect(px(still.data, x, y)).toEqual(px(original.data, x, y));
    }
  }, 60_000);
});
