import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { runProcess } from '../util/process.ts';

const IMGLY_CHILD = fileURLToPath(new URL('./imgly-child.mjs', import.meta.url));

export interface CutoutResult {
  /** RGBA PNG the size of the input photo: placements scale the photo's natural size, so size is kept. */
  cutoutPath: string;
  /** Greyscale PNG mask (white = product), same size. */
  maskPath: string;
  /** Product bounding box in the photo's pixels. */
  box: { left: number; top: number; width: number; height: number };
  method: 'model+colour' | 'colour';
  shape: ProductShape;
  category: ProductCategory;
}

export type ProductShape = 'bottle' | 'tube' | 'box' | 'jar' | 'can' | 'pouch' | 'other';
export type ProductCategory = 'skincare' | 'beverage' | 'supplement' | 'cosmetics' | 'food' | 'other';

/**
 * Cuts a product out of its photo. The ONNX model (imgly, in a child process) and a colour-distance mask from the
 * photo's border colour are combined: the model finds the object, the colour mask keeps flat labels the model
 * sometimes drops on studio shots; a median filter removes specks. Without the model, the colour mask alone.
 */
export async function cutoutProduct(input: {
  productPath: string;
  outDir: string;
  signal?: AbortSignal;
  useModel?: boolean;
}): Promise<CutoutResult> {
  await mkdir(input.outDir, { recursive: true });
  const { data: rgb, info } = await sharp(input.productPath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const colour = colourMask(rgb, width, height, 45);
  // Pixels that are not background-coloured at all: the model's stray specks on a plain backdrop fall outside it.
  const notBackground = colourMask(rgb, width, height, 12);
  let mask = colour;
  let method: CutoutResult['method'] = 'colour';
  if (input.useModel !== false) {
    try {
      const modelPng = path.join(input.outDir, 'model.png');
      await runProcess(process.execPath, [IMGLY_CHILD, input.productPath, modelPng], {
        timeoutMs: 180_000,
        signal: input.signal,
      });
      const alpha = await sharp(modelPng).ensureAlpha().extractChannel(3).raw().toBuffer();
      mask = Buffer.alloc(width * height);
      for (let i = 0; i < mask.length; i++)
        mask[i] = colour[i] === 255 || ((alpha[i] ?? 0) > 160 && notBackground[i] === 255) ? 255 : 0;
      method = 'model+colour';
    } catch (err) {
      if (input.signal?.aborted) throw err;
      // The colour mask alone is a sound cut-out for the clean backgrounds the upload guidelines ask for.
    }
  }
  const cleaned = await sharp(mask, { raw: { width, height, channels: 1 } })
    .median(5)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const box = boundingBox(cleaned, width, height);
  const maskPath = path.join(input.outDir, 'mask.png');
  const cutoutPath = path.join(input.outDir, 'cutout.png');
  await sharp(cleaned, { raw: { width, height, channels: 1 } })
    .png()
    .toFile(maskPath);
  await sharp(rgb, { raw: { width, height, channels: 3 } })
    .joinChannel(cleaned, { raw: { width, height, channels: 1 } })
    .png()
    .toFile(cutoutPath);
  const analysis = analyseProduct(rgb, cleaned, width, box);
  return { cutoutPath, maskPath, box, method, ...analysis };
}

/** 255 where a pixel's colour distance from the median colour of the photo's border exceeds the threshold. */
export function colourMask(rgb: Buffer, width: number, height: number, threshold: number): Buffer {
  const border: number[][] = [[], [], []];
  const sample = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    for (let c = 0; c < 3; c++) border[c]!.push(rgb[i + c]!);
  };
  for (let x = 0; x < width; x += 2) {
    sample(x, 0);
    sample(x, height - 1);
  }
  for (let y = 0; y < height; y += 2) {
    sample(0, y);
    sample(width - 1, y);
  }
  const median = border.map((v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 255);
  const out = Buffer.alloc(width * height);
  for (let p = 0; p < out.length; p++) {
    const i = p * 3;
    const d = Math.abs(rgb[i]! - median[0]!) + Math.abs(rgb[i + 1]! - median[1]!) + Math.abs(rgb[i + 2]! - median[2]!);
    out[p] = d > threshold ? 255 : 0;
  }
  return out;
}

export function boundingBox(mask: Buffer, width: number, height: number) {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]! > 127) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  if (right < 0) return { left: 0, top: 0, width, height };
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * Shape from the mask's geometry (aspect ratio and how much of its box it fills); category from shape and
 * dominant colour. Heuristic and deterministic; a vision model replaces it when one is configured.
 */
export function analyseProduct(
  rgb: Buffer,
  mask: Buffer,
  width: number,
  box: { left: number; top: number; width: number; height: number },
): { shape: ProductShape; category: ProductCategory } {
  let filled = 0;
  const sum = [0, 0, 0];
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      const p = y * width + x;
      if (mask[p]! > 127) {
        filled++;
        for (let c = 0; c < 3; c++) sum[c]! += rgb[p * 3 + c]!;
      }
    }
  }
  const fill = filled / Math.max(1, box.width * box.height);
  const aspect = box.height / Math.max(1, box.width);
  // A neck or cap clearly narrower than the body is what tells a bottle from a box.
  const rowWidth = (fraction: number) => {
    const y = box.top + Math.min(box.height - 1, Math.floor(box.height * fraction));
    let n = 0;
    for (let x = box.left; x < box.left + box.width; x++) if (mask[y * width + x]! > 127) n++;
    return n;
  };
  const necked = rowWidth(0.08) < rowWidth(0.6) * 0.75;
  let shape: ProductShape;
  if (aspect > 3.6 && !necked) shape = 'tube';
  else if (aspect > 1.8) shape = necked ? 'bottle' : fill > 0.9 ? 'box' : 'bottle';
  else if (aspect > 1.25) shape = fill > 0.92 ? 'box' : fill > 0.8 ? 'can' : 'pouch';
  else if (aspect > 0.75) shape = fill > 0.92 ? 'box' : 'jar';
  else shape = fill > 0.85 ? 'box' : 'other';
  const [r, g, b] = sum.map((v) => v / Math.max(1, filled)) as [number, number, number];
  const bright = (r + g + b) / 3;
  let category: ProductCategory;
  if (shape === 'can') category = 'beverage';
  else if (shape === 'tube') category = bright > 150 ? 'skincare' : 'cosmetics';
  else if (shape === 'jar') category = g > r && g > b ? 'supplement' : 'skincare';
  else if (shape === 'bottle') category = b > r && b > g ? 'beverage' : r > g + 30 ? 'cosmetics' : 'skincare';
  else if (shape === 'pouch' || shape === 'box') category = r > 150 && g > 100 ? 'food' : 'supplement';
  else category = 'other';
  return { shape, category };
}
