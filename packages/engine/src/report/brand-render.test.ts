import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription } from '../actors/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { OUTRO_SEC } from '../layout/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { runProcess } from '../util/process.ts';
import { hardFailures } from './index.ts';

/** A frame of a video at t seconds as raw RGB (720x1280). */
async function frameAt(video: string, t: number, out: string): Promise<{ data: Buffer; width: number }> {
  await runProcess('ffmpeg', ['-y', '-v', 'error', '-ss', t.toFixed(2), '-i', video, '-frames:v', '1', out]);
  const { data, info } = await sharp(out).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}
const pixel = (f: { data: Buffer; width: number }, x: number, y: number) => {
  const i = (y * f.width + x) * 3;
  return [f.data[i]!, f.data[i + 1]!, f.data[i + 2]!];
};
const near = (a: number[], b: number[], tol = 24) => a.every((v, i) => Math.abs(v - b[i]!) <= tol);

describe('a video in a brand kit', () => {
  let dir: string;
  let cutoutPath: string;
  let logoPath: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-brand-'));
    const product = path.join(dir, 'product.png');
    await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640"><rect width="480" height="640" fill="#fff"/>
        <rect x="170" y="180" width="140" height="380" rx="30" fill="#2d6cd6"/></svg>`),
    )
      .png()
      .toFile(product);
    cutoutPath = (await cutoutProduct({ productPath: product, outDir: dir, useModel: false })).cutoutPath;
    // A wide logo on transparency with empty margins the engine trims: an orange disc and a white bar.
    logoPath = path.join(dir, 'logo.webp');
    await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300">
        <circle cx="150" cy="150" r="100" fill="#F77F00"/><rect x="280" y="110" width="260" height="80" fill="#ffffff"/></svg>`),
    )
      .webp({ lossless: true })
      .toFile(logoPath);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('draws the brand font and colours, ends on the outro card with the logo, and passes its report', async () => {
    const out = await renderTalkingVideo({
      script: 'This serum changed my mornings. Try it today!',
      hookText: 'My skin before and after',
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('young woman', 3) },
      product: { cutoutPath, placement: { position_x: 370, position_y: 700, scale: 0.35, rotation: -6 } },
      captionStyle: 'highlight',
      cta: 'Get 20% off today',
      watermark: false,
      brand: { font: 'lato', primary: '#E63946', secondary: '#1D3557', outroLogoPath: logoPath },
      workDir: path.join(dir, 'video'),
    });
    const r = out.report;
    expect(hardFailures(r)).toEqual([]);
    expect(r.overlaps).toEqual([]);
    expect(r.safe_zone_violations).toEqual([]);
    expect(r.checks.find((c) => c.id === 'safe-zone')?.level).toBe('pass');
    const outro = r.boxes.find((b) => b.name === 'outro logo')!;
    const cta = r.boxes.find((b) => b.name === 'end card CTA')!;
    expect(outro).toBeDefined();
    expect(outro.start_sec).toBeGreaterThanOrEqual(cta.end_sec - 0.01);
    expect(out.durationSec - outro.start_sec).toBeCloseTo(OUTRO_SEC, 1);
    expect(r.duration_sec).toBeGreaterThanOrEqual(out.durationSec - 0.05);

    const ass = await import('node:fs/promises').then((fs) => fs.readFile(out.assPath, 'utf8'));
    expect(ass).toMatch(/^Style: Caption,Lato,/m);

    // The last frame: the outro card's colour around the logo, the logo's orange disc and white bar in its box.
    const last = await frameAt(out.videoPath, out.durationSec - 0.15, path.join(dir, 'outro.png'));
    const b = outro.box;
    expect(near(pixel(last, 20, 20), [0x1d, 0x35, 0x57])).toBe(true);
    expect(
      near(pixel(last, Math.round(b.x + (b.w * (150 - 50)) / 490), Math.round(b.y + b.h / 2)), [0xf7, 0x7f, 0x00], 40),
    ).toBe(true);
    expect(
      near(pixel(last, Math.round(b.x + (b.w * (410 - 50)) / 490), Math.round(b.y + b.h / 2)), [255, 255, 255], 30),
    ).toBe(true);
    // The CTA card: its button is the primary colour.
    const card = await frameAt(out.videoPath, (cta.start_sec + cta.end_sec) / 2 + 0.2, path.join(dir, 'cta.png'));
    expect(
      near(pixel(card, Math.round(cta.box.x + 8), Math.round(cta.box.y + cta.box.h / 2)), [0xe6, 0x39, 0x46], 30),
    ).toBe(true);
    if (process.env.HOOKREEL_KEEP_FRAMES) {
      await sharp(path.join(dir, 'outro.png')).toFile(path.join(process.env.HOOKREEL_KEEP_FRAMES, 'brand-outro.png'));
      await sharp(path.join(dir, 'cta.png')).toFile(path.join(process.env.HOOKREEL_KEEP_FRAMES, 'brand-cta.png'));
      await sharp(out.contactSheetPath).toFile(path.join(process.env.HOOKREEL_KEEP_FRAMES, 'brand-sheet.png'));
    }
  }, 240_000);
});
