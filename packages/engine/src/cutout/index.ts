import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { runProcess } from '../util/process.ts';
import { checkMatte, type MatteCheck } from './matte-check.ts';

const IMGLY_CHILD = fileURLToPath(new URL('./imgly-child.mjs', import.meta.url));

export interface CutoutResult {
  /** RGBA PNG the size of the input photo: placements scale the photo's natural size, so size is kept. */
  cutoutPath: string;
  /** Greyscale PNG mask (white = product), same size. */
  maskPath: string;
  /** Product bounding box in the photo's pixels. */
  box: { left: number; top: number; width: number; height: number };
  /** 'alpha': the photo came cut out (transparent background) and its own alpha is the mask. */
  method: 'alpha' | 'model+colour' | 'colour';
  shape: ProductShape;
  category: ProductCategory;
  /** The matte's check: the cut-out and mask written are the cleaned ones (cutout/matte-check.ts). */
  matte: MatteCheck;
}

export type ProductShape = 'bottle' | 'tube' | 'box' | 'jar' | 'can' | 'pouch' | 'other';
export type ProductCategory = 'skincare' | 'beverage' | 'supplement' | 'cosmetics' | 'food' | 'other';

/**
 * Cuts a product out of its photo. A photo that is already cut out (transparent background) is its own cut-out:
 * its alpha is the mask and nothing else runs (docs/decisions/151). Otherwise the ONNX model (imgly, in a child
 * process) and a colour-distance mask from the photo's border colour are combined: the model finds the object,
 * the colour mask keeps flat labels the model sometimes drops on studio shots; a median filter removes specks.
 * Without the model, the colour mask alone.
 */
export async function cutoutProduct(input: {
  productPath: string;
  outDir: string;
  signal?: AbortSignal;
  useModel?: boolean;
  /** Writes the model's RGBA cut-out of the photo to outPng; the imgly child process unless a test swaps it. */
  model?: (productPath: string, outPng: string, signal?: AbortSignal) => Promise<void>;
}): Promise<CutoutResult> {
  await mkdir(input.outDir, { recursive: true });
  const { data: rgb, info } = await sharp(input.productPath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const ownAlpha = await transparentBackgroundAlpha(input.productPath, width, height);
  if (ownAlpha) return writeCutout(input.outDir, rgb, ownAlpha, width, height, 'alpha');
  const colour = colourMask(rgb, width, height, 45);
  // Pixels that are not background-coloured at all: the model's stray specks on a plain backdrop fall outside it.
  const notBackground = colourMask(rgb, width, height, 12);
  let mask = colour;
  let method: CutoutResult['method'] = 'colour';
  if (input.useModel !== false) {
    try {
      const modelPng = path.join(input.outDir, 'model.png');
      await (input.model ?? imglyModel)(input.productPath, modelPng, input.signal);
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
  return writeCutout(input.outDir, rgb, cleaned, width, height, method);
}

async function imglyModel(productPath: string, outPng: string, signal?: AbortSignal): Promise<void> {
  await runProcess(process.execPath, [IMGLY_CHILD, productPath, outPng], { timeoutMs: 180_000, signal });
}

/**
 * Checks and cleans the mask, then writes it and the RGBA cut-out (the cleaned mask as its alpha) and analyses
 * the product under it: every later use of the cut-out sees the cleaned matte.
 */
async function writeCutout(
  outDir: string,
  rgb: Buffer,
  rawMask: Buffer,
  width: number,
  height: number,
  method: CutoutResult['method'],
): Promise<CutoutResult> {
  const { alpha: mask, check: matte } = checkMatte(rawMask, width, height);
  const box = boundingBox(mask, width, height);
  const maskPath = path.join(outDir, 'mask.png');
  const cutoutPath = path.join(outDir, 'cutout.png');
  await sharp(mask, { raw: { width, height, channels: 1 } })
    .png()
    .toFile(maskPath);
  await sharp(rgb, { raw: { width, height, channels: 3 } })
    .joinChannel(mask, { raw: { width, height, channels: 1 } })
    .png()
    .toFile(cutoutPath);
  // Only pixels over half opaque count, so the rgb under transparent pixels (often black) never colours the result.
  const analysis = analyseProduct(rgb, mask, width, box);
  return { cutoutPath, maskPath, box, method, ...analysis, matte };
}

/** Below this alpha a pixel is background: encoders leave faint halos and specks around cut-out products. */
const CLEAR_ALPHA = 16;

/**
 * The photo's own alpha as a cut-out mask when the photo comes cut out: at least 90% of its border pixels are
 * (nearly) transparent and some pixels are opaque. Null otherwise, including photos whose alpha channel is all
 * opaque (screenshots, many exported PNGs): those still need the model. Soft edges are kept; faint pixels cleared.
 */
export async function transparentBackgroundAlpha(
  productPath: string,
  width: number,
  height: number,
): Promise<Buffer | null> {
  if (!(await sharp(productPath).metadata()).hasAlpha) return null;
  const alpha = await sharp(productPath).toColourspace('srgb').ensureAlpha().extractChannel(3).raw().toBuffer();
  if (alpha.length !== width * height) return null;
  let border = 0;
  let clear = 0;
  const visit = (x: number, y: number) => {
    border++;
    if (alpha[y * width + x]! < CLEAR_ALPHA) clear++;
  };
  for (let x = 0; x < width; x++) {
    visit(x, 0);
    if (height > 1) visit(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    visit(0, y);
    if (width > 1) visit(width - 1, y);
  }
  if (clear < border * 0.9) return null;
  let opaque = 0;
  for (let i = 0; i < alpha.length; i++) {
    if (alpha[i]! < CLEAR_ALPHA) alpha[i] = 0;
    else if (alpha[i]! > 127) opaque++;
  }
  // A product under 0.1% of the picture is no product: the model path decides what such a photo holds.
  return opaque >= alpha.length * 0.001 ? alpha : null;
}

/**
 * 255 where a pixel's colour distance from the backdrop behind it exceeds the threshold. The backdrop is
 * estimated from the photo's four borders and blended across the picture (a Coons patch), so a studio gradient
 * or a vignette, darker at the edges than behind the product, is still background: one border colour for the
 * whole photo turned a gradient's edges into opaque bars (issue #34).
 */
export function colourMask(rgb: Buffer, width: number, height: number, threshold: number): Buffer {
  const bg = backdrop(rgb, width, height);
  const out = Buffer.alloc(width * height);
  for (let p = 0; p < out.length; p++) {
    const i = p * 3;
    const d = Math.abs(rgb[i]! - bg[i]!) + Math.abs(rgb[i + 1]! - bg[i + 1]!) + Math.abs(rgb[i + 2]! - bg[i + 2]!);
    out[p] = d > threshold ? 255 : 0;
  }
  return out;
}

/**
 * The backdrop's colour at every pixel from the colours along the four borders. Along each border a short
 * median removes dust, and a stretch bounded by sharp steps that differs from both its sides (a product that
 * runs off the photo) is replaced by a line between its sides: a gradient changes slowly, a product edge at once.
 */
export function backdrop(rgb: Buffer, width: number, height: number): Float32Array {
  const edge = (n: number, at: (k: number) => number): Float32Array => {
    const out = new Float32Array(n * 3);
    for (let k = 0; k < n; k++)
      for (let c = 0; c < 3; c++) {
        const window: number[] = [];
        for (let j = Math.max(0, k - 4); j <= Math.min(n - 1, k + 4); j++) window.push(rgb[at(j) * 3 + c]!);
        window.sort((a, b) => a - b);
        out[k * 3 + c] = window[Math.floor(window.length / 2)]!;
      }
    const dist = (a: number, b: number) =>
      Math.abs(out[a * 3]! - out[b * 3]!) +
      Math.abs(out[a * 3 + 1]! - out[b * 3 + 1]!) +
      Math.abs(out[a * 3 + 2]! - out[b * 3 + 2]!);
    const STEP = 4;
    const steps: number[] = [];
    for (let k = 0; k + STEP < n; k++) if (dist(k, k + STEP) > 60) steps.push(k);
    // Consecutive step samples are one step; its stretch runs from one step's end to the next step's start.
    const edges: { from: number; to: number }[] = [];
    for (const k of steps) {
      const last = edges[edges.length - 1];
      if (last && k <= last.to + 1) last.to = k;
      else edges.push({ from: k, to: k });
    }
    for (let i = 0; i + 1 < edges.length; i++) {
      const a = edges[i]!.from;
      const b = edges[i + 1]!.to + STEP;
      if (b - a > n * 0.7 || b >= n) continue;
      const mid = Math.floor((edges[i]!.to + STEP + edges[i + 1]!.from) / 2);
      if (dist(mid, a) < 60 || dist(mid, b) < 60) continue;
      for (let k = a + 1; k < b; k++)
        for (let c = 0; c < 3; c++)
          out[k * 3 + c] = out[a * 3 + c]! + ((out[b * 3 + c]! - out[a * 3 + c]!) * (k - a)) / (b - a);
      i++;
    }
    return out;
  };
  const top = edge(width, (x) => x);
  const bottom = edge(width, (x) => (height - 1) * width + x);
  const left = edge(height, (y) => y * width);
  const right = edge(height, (y) => y * width + width - 1);
  const corner = (e: Float32Array, k: number, c: number) => e[k * 3 + c]!;
  const out = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = height > 1 ? y / (height - 1) : 0;
    for (let x = 0; x < width; x++) {
      const u = width > 1 ? x / (width - 1) : 0;
      for (let c = 0; c < 3; c++) {
        const ruled =
          (1 - v) * top[x * 3 + c]! + v * bottom[x * 3 + c]! + (1 - u) * left[y * 3 + c]! + u * right[y * 3 + c]!;
        const bilinear =
          (1 - u) * (1 - v) * corner(top, 0, c) +
          u * (1 - v) * corner(top, width - 1, c) +
          (1 - u) * v * corner(bottom, 0, c) +
          u * v * corner(bottom, width - 1, c);
        out[(y * width + x) * 3 + c] = ruled - bilinear;
      }
    }
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
