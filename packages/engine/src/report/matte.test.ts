import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutoutProduct } from '../cutout/index.ts';
import { PRODUCT_PHOTOS } from '../cutout/product-photos.ts';
import { productMatteCheck } from './matte.ts';

/** An RGBA cut-out 200x300: a product rectangle, plus what `extra` draws (SVG elements, opaque black). */
async function cutout(file: string, extra = ''): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300">
    <rect x="40" y="60" width="120" height="200" fill="#c03030"/>${extra}</svg>`;
  await sharp(Buffer.from(svg)).ensureAlpha().png().toFile(file);
  return file;
}

describe('productMatteCheck', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-matte-report-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes one solid product', async () => {
    const check = await productMatteCheck(await cutout(path.join(dir, 'clean.png')));
    expect(check).toMatchObject({ id: 'product-matte', level: 'pass' });
  });

  it('fails stray specks, an edge bar and a hole, and says which', async () => {
    const file = await cutout(
      path.join(dir, 'dirty.png'),
      '<rect x="5" y="5" width="3" height="3" fill="#000"/><rect x="0" y="290" width="200" height="10" fill="#ddd"/>',
    );
    // The hole: clear the alpha inside the product.
    const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
    for (let y = 120; y < 140; y++) for (let x = 80; x < 110; x++) data[(y * info.width + x) * 4 + 3] = 0;
    await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
      .png()
      .toFile(path.join(dir, 'holed.png'));
    const check = await productMatteCheck(path.join(dir, 'holed.png'));
    expect(check.level).toBe('fail');
    expect(check.detail).toMatch(/1 stray patch outside the product/);
    expect(check.detail).toMatch(/1 bar along the photo's edge/);
    expect(check.detail).toMatch(/1 hole inside the product/);
  });

  it('passes the amber bottle cut-out the engine cleaned, which its raw matte would fail', async () => {
    const photo = PRODUCT_PHOTOS.find((p) => p.name === 'amber-dropper-beige-gradient')!;
    const file = path.join(dir, 'amber.jpg');
    await photo.write(file);
    const out = await cutoutProduct({ productPath: file, outDir: path.join(dir, 'amber'), useModel: false });
    expect(out.matte.before.specks).toBeGreaterThan(0);
    expect((await productMatteCheck(out.cutoutPath)).level).toBe('pass');
  });
});
