import { execFile } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { actorFromDescription } from '../actors/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { cutoutProduct } from './index.ts';
import { PRODUCT_PHOTOS } from './product-photos.ts';

/**
 * `node --import tsx packages/engine/src/cutout/before-after-cli.ts [dir]`: the before/after frames of
 * docs/video-design.md#product-cut-out. The amber dropper bottle on its beige gradient is rendered in a hand
 * twice: with the matte as the colour-only cut-out made it before issue #34 (one border colour for the whole
 * photo, no check), and with today's cut-out (backdrop from the four borders, then checked and cleaned).
 */
const run = promisify(execFile);
const dir = path.resolve(process.argv[2] ?? 'docs/video-design');
const work = await mkdtemp(path.join(tmpdir(), 'hookreel-cutout-docs-'));
await mkdir(dir, { recursive: true });
const photo = PRODUCT_PHOTOS.find((p) => p.name === 'amber-dropper-beige-gradient')!;
const photoPath = path.join(work, 'amber.jpg');
await photo.write(photoPath);

// Before: the median of the border's colours, distance over 45, median filter 5 (the code before issue #34).
const { data: rgb, info } = await sharp(photoPath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
const { width, height } = info;
const border: number[][] = [[], [], []];
const sample = (x: number, y: number) => {
  for (let c = 0; c < 3; c++) border[c]!.push(rgb[(y * width + x) * 3 + c]!);
};
for (let x = 0; x < width; x += 2) {
  sample(x, 0);
  sample(x, height - 1);
}
for (let y = 0; y < height; y += 2) {
  sample(0, y);
  sample(width - 1, y);
}
const median = border.map((v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!);
const flat = Buffer.alloc(width * height);
for (let p = 0; p < flat.length; p++) {
  const d = [0, 1, 2].reduce((s, c) => s + Math.abs(rgb[p * 3 + c]! - median[c]!), 0);
  flat[p] = d > 45 ? 255 : 0;
}
const beforeMask = await sharp(flat, { raw: { width, height, channels: 1 } })
  .median(5)
  .extractChannel(0)
  .raw()
  .toBuffer();
const beforeCutout = path.join(work, 'before-cutout.png');
await sharp(rgb, { raw: { width, height, channels: 3 } })
  .joinChannel(beforeMask, { raw: { width, height, channels: 1 } })
  .png()
  .toFile(beforeCutout);
const after = await cutoutProduct({ productPath: photoPath, outDir: path.join(work, 'after'), useModel: false });
console.log(`[cutout] after: ${after.matte.verdict}; ${after.matte.fixed.join('; ')}`);

for (const [name, cutoutPath] of [
  ['before', beforeCutout],
  ['after', after.cutoutPath],
] as const) {
  const out = await renderTalkingVideo({
    script: 'This serum changed my mornings.',
    language: 'english',
    accent: 'american',
    actor: { kind: 'procedural', spec: actorFromDescription('woman who loves skincare', 2) },
    product: { cutoutPath, placement: { position_x: 380, position_y: 690, scale: 0.45, rotation: -8 } },
    watermark: false,
    workDir: path.join(work, `render-${name}`),
  });
  const matte = out.report.checks.find((c) => c.id === 'product-matte');
  console.log(`[cutout] ${name}: product-matte ${matte?.level} (${matte?.detail})`);
  const frame = path.join(work, `${name}.png`);
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-ss', '1.2', '-i', out.videoPath, '-frames:v', '1', frame]);
  const file = path.join(dir, `cutout-${name}.png`);
  await sharp(frame).resize(360, 640).png({ palette: true, quality: 80 }).toFile(file);
  console.log(`[cutout] ${file}`);
}
