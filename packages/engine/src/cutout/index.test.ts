import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cutoutProduct } from './index.ts';
import { tempDirForTests } from '../util/temp-dir.fixture.ts';

/**
 * A red bottle (cap 205..275 x 110..190, body 170..310 x 180..560) with a label, 480x640. `background` null leaves
 * the background transparent; the label's lower half is drawn half transparent to stand for a soft edge.
 */
async function bottlePhoto(file: string, background: string | null, alpha = background === null): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    ${background ? `<rect width="480" height="640" fill="${background}"/>` : ''}
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#d62d2d"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/>
    <rect x="120" y="420" width="40" height="40" fill="#d62d2d" fill-opacity="0.5"/></svg>`;
  const png = sharp(Buffer.from(svg));
  await (alpha ? png.ensureAlpha() : png.removeAlpha()).png().toFile(file);
}

/** A stand-in for the imgly model that records its calls and finds nothing (the colour mask does the work). */
function fakeModel() {
  const calls: string[] = [];
  const model = async (productPath: string, outPng: string) => {
    calls.push(productPath);
    const { width = 1, height = 1 } = await sharp(productPath).metadata();
    await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toFile(outPng);
  };
  return { calls, model };
}

describe('cutoutProduct', () => {
  const tmp = tempDirForTests('hookreel-cutout-');

  it('takes a photo with a transparent background as its own cut-out, without the model', async () => {
    const photo = path.join(tmp.path, 'transparent.png');
    await bottlePhoto(photo, null);
    const { calls, model } = fakeModel();
    const out = await cutoutProduct({ productPath: photo, outDir: path.join(tmp.path, 'transparent'), model });
    expect(out.method).toBe('alpha');
    expect(calls).toEqual([]);
    // The bottle's box, cap to base; the half-transparent patch beside it counts as product too (alpha 128).
    expect(out.box.left).toBeGreaterThanOrEqual(118);
    expect(out.box.left).toBeLessThanOrEqual(122);
    expect(out.box.top).toBeGreaterThanOrEqual(108);
    expect(out.box.top).toBeLessThanOrEqual(112);
    expect(out.box.left + out.box.width).toBeGreaterThanOrEqual(308);
    expect(out.box.left + out.box.width).toBeLessThanOrEqual(312);
    expect(out.box.top + out.box.height).toBeGreaterThanOrEqual(558);
    expect(out.box.top + out.box.height).toBeLessThanOrEqual(562);
    const cut = await sharp(out.cutoutPath).raw().toBuffer({ resolveWithObject: true });
    expect([cut.info.width, cut.info.height, cut.info.channels]).toEqual([480, 640, 4]);
    const at = (x: number, y: number) => [...cut.data.subarray((y * 480 + x) * 4, (y * 480 + x) * 4 + 4)];
    expect(at(10, 10)[3]).toBe(0);
    expect(at(240, 480)).toEqual([214, 45, 45, 255]); // the bottle's body keeps its colour, opaque
    expect(at(140, 440)[3]).toBeGreaterThan(100); // the soft patch stays soft rather than cut to 0 or 255
    expect(at(140, 440)[3]).toBeLessThan(160);
    const meta = await sharp(out.maskPath).metadata();
    expect([meta.width, meta.height]).toEqual([480, 640]);
    const mask = await sharp(out.maskPath).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    expect(mask.data[10 * 480 + 10]).toBe(0);
    expect(mask.data[480 * 480 + 240]).toBe(255);
  });

  it('analyses the product under its own alpha, not the black behind transparent pixels', async () => {
    const photo = path.join(tmp.path, 'transparent-plain.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
      <rect x="170" y="180" width="140" height="380" rx="30" fill="#2d4fd6"/>
      <rect x="205" y="110" width="70" height="80" rx="8" fill="#2d4fd6"/></svg>`;
    await sharp(Buffer.from(svg)).png().toFile(photo);
    const out = await cutoutProduct({
      productPath: photo,
      outDir: path.join(tmp.path, 'plain'),
      model: fakeModel().model,
    });
    expect(out.method).toBe('alpha');
    expect([out.shape, out.category]).toEqual(['bottle', 'beverage']);
  });

  it('still runs the model on a photo whose alpha channel is opaque everywhere', async () => {
    const photo = path.join(tmp.path, 'opaque.png');
    await bottlePhoto(photo, '#ffffff', true);
    expect((await sharp(photo).metadata()).hasAlpha).toBe(true);
    const { calls, model } = fakeModel();
    const out = await cutoutProduct({ productPath: photo, outDir: path.join(tmp.path, 'opaque'), model });
    expect(out.method).toBe('model+colour');
    expect(calls).toEqual([photo]);
    expect(out.box.top).toBeGreaterThanOrEqual(105);
    expect(out.box.top).toBeLessThanOrEqual(115);
    expect(out.shape).toBe('bottle');
  });

  it('does not take a product that fills the border for a cut-out', async () => {
    // Transparent only in the middle: the border is opaque, so this is a photo, not a cut-out.
    const photo = path.join(tmp.path, 'framed.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">
      <path d="M0 0H200V200H0Z M50 50V150H150V50Z" fill="#ffffff" fill-rule="evenodd"/>
      <rect x="80" y="60" width="40" height="80" fill="#d62d2d"/></svg>`;
    await sharp(Buffer.from(svg)).png().toFile(photo);
    const { calls, model } = fakeModel();
    const out = await cutoutProduct({ productPath: photo, outDir: path.join(tmp.path, 'framed'), model });
    expect(out.method).toBe('model+colour');
    expect(calls).toHaveLength(1);
  });
});
