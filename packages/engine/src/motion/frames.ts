import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { coloursOfSpec, sceneSvg, type ActorSpec } from '../actors/index.ts';
import { figureSvg, liftedProduct, type HeldProduct, type RigPose } from '../actors/rig.ts';
import { FRAME_WIDTH } from '../types.ts';
import { poseKey } from './timeline.ts';

/** Where the product goes in the 576x1024 frame: centre point, scale of its natural size, degrees clockwise. */
export interface ProductPlacement {
  position_x: number;
  position_y: number;
  scale: number;
  rotation: number;
}

/** A product cut-out prepared for holding: its opaque part, and where that part sits in the frame. */
export interface PreparedProduct {
  /** The cut-out cropped to its opaque pixels (PNG). */
  png: Buffer;
  held: HeldProduct;
  /** Identifies the pixels and placement (cache key). */
  key: string;
}

/**
 * Crops the cut-out to its opaque pixels and works out where that part is once placed: the placement centres
 * the whole image (transparent margins included), so the opaque part's centre is offset, scaled and rotated.
 */
export async function prepareProduct(cutoutPath: string, placement: ProductPlacement): Promise<PreparedProduct> {
  const img = sharp(cutoutPath).ensureAlpha();
  const { data, info } = await img.clone().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  let x0 = info.width;
  let y0 = info.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < info.height; y++) {
    const row = y * info.width;
    for (let x = 0; x < info.width; x++) {
      if (data[row + x]! > 24) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) throw new Error('The product cut-out is empty');
  const tw = x1 - x0 + 1;
  const th = y1 - y0 + 1;
  const png = await img.extract({ left: x0, top: y0, width: tw, height: th }).png().toBuffer();
  const s = placement.scale;
  const dx = (x0 + tw / 2 - info.width / 2) * s;
  const dy = (y0 + th / 2 - info.height / 2) * s;
  const r = (placement.rotation * Math.PI) / 180;
  const held: HeldProduct = {
    cx: placement.position_x + dx * Math.cos(r) - dy * Math.sin(r),
    cy: placement.position_y + dx * Math.sin(r) + dy * Math.cos(r),
    width: Math.max(1, tw * s),
    height: Math.max(1, th * s),
    rotation: placement.rotation,
  };
  const key = createHash('sha256').update(png).update(JSON.stringify(placement)).digest('hex').slice(0, 16);
  return { png, held, key };
}

/** The product as drawn for a pose (scaled, rotated) with its soft contact shadow, as layers at pixel scale k. */
async function productLayers(p: PreparedProduct, pose: RigPose, k: number): Promise<OverlayOptions[]> {
  const lp = liftedProduct(p.held, pose);
  const w = Math.max(1, Math.round(lp.width * k));
  const h = Math.max(1, Math.round(lp.height * k));
  const rotated = await sharp(p.png)
    .resize(w, h, { fit: 'fill' })
    .rotate(lp.rotation, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const left = Math.round(lp.cx * k - rotated.info.width / 2);
  const top = Math.round(lp.cy * k - rotated.info.height / 2);
  // Soft shadow: the silhouette in dark brown, blurred, offset down-right, at 35% — it sits on the body.
  const pad = Math.round(14 * k);
  const shadow = await sharp(rotated.data)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .linear([0, 0, 0, 0.35], [30, 20, 15, 0])
    .blur(6 * k)
    .png()
    .toBuffer();
  return [
    { input: shadow, left: left - pad + Math.round(6 * k), top: top - pad + Math.round(9 * k) },
    { input: rotated.data, left, top },
  ];
}

/**
 * One rig frame: scene, figure, product (with shadow) and the fingers over it, at width x height. `transparent`
 * leaves the scene out (the figure alone, for checks).
 */
export async function renderRigFrame(input: {
  spec: ActorSpec;
  pose: RigPose;
  product: PreparedProduct | null;
  width: number;
  height: number;
  transparent?: boolean;
}): Promise<Sharp> {
  const { spec, pose, product, width, height } = input;
  const k = width / FRAME_WIDTH;
  const size = { width, height };
  const colours = coloursOfSpec(spec);
  const layers: OverlayOptions[] = [
    { input: Buffer.from(figureSvg(spec.traits, colours, pose, product?.held ?? null, 'back', size)) },
  ];
  if (product) {
    layers.push(...(await productLayers(product, pose, k)));
    layers.push({ input: Buffer.from(figureSvg(spec.traits, colours, pose, product.held, 'front', size)) });
  }
  const base = input.transparent
    ? sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    : sharp(Buffer.from(sceneSvg(spec.background, spec.seed, width, height)));
  const clipped: OverlayOptions[] = [];
  for (const l of layers) {
    const c = await clipLayer(l, width, height);
    if (c) clipped.push(c);
  }
  return sharp(await base.png().toBuffer()).composite(clipped);
}

/** The part of a positioned layer inside the frame (a product placed half outside the frame is cut). */
async function clipLayer(l: OverlayOptions, width: number, height: number): Promise<OverlayOptions | null> {
  if (l.left === undefined || l.top === undefined || !Buffer.isBuffer(l.input)) return l;
  const meta = await sharp(l.input).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  const x0 = Math.max(0, l.left);
  const y0 = Math.max(0, l.top);
  const x1 = Math.min(width, l.left + w);
  const y1 = Math.min(height, l.top + h);
  if (x1 <= x0 || y1 <= y0) return null;
  if (x0 === l.left && y0 === l.top && x1 - x0 === w && y1 - y0 === h) return l;
  const input = await sharp(l.input)
    .extract({ left: x0 - l.left, top: y0 - l.top, width: x1 - x0, height: y1 - y0 })
    .png()
    .toBuffer();
  return { input, left: x0, top: y0 };
}

/** Bump when the drawing changes, so cached frames are redrawn. */
const RIG_VERSION = 'rig-v4';
export const RIG_CACHE_DIR = process.env.HOOKREEL_RIG_CACHE ?? path.join(tmpdir(), 'hookreel-rig-cache');

/**
 * The PNG of each pose (opaque, scene included) for an actor and product, rendered once and cached on disk by
 * what they depend on, so the videos of a pack (same actor, same product) share them.
 */
export async function rigFrames(input: {
  spec: ActorSpec;
  product: PreparedProduct | null;
  poses: readonly RigPose[];
  width: number;
  height: number;
}): Promise<Map<string, string>> {
  const id = createHash('sha256')
    .update(RIG_VERSION)
    .update(JSON.stringify([input.spec, input.product?.key ?? null, input.width, input.height]))
    .digest('hex')
    .slice(0, 24);
  const dir = path.join(RIG_CACHE_DIR, id);
  await mkdir(dir, { recursive: true });
  const out = new Map<string, string>();
  const unique = new Map(input.poses.map((p) => [poseKey(p), p]));
  const todo: Array<[string, RigPose]> = [];
  for (const [key, pose] of unique) {
    const file = path.join(dir, `${key}.png`);
    out.set(key, file);
    try {
      await stat(file);
    } catch {
      todo.push([file, pose]);
    }
  }
  // Two at a time: libvips threads inside each already use the cores.
  for (let i = 0; i < todo.length; i += 2) {
    await Promise.all(
      todo.slice(i, i + 2).map(async ([file, pose]) => {
        const frame = await renderRigFrame({ ...input, pose });
        const png = await frame.png({ compressionLevel: 1 }).toBuffer();
        const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        await writeFile(tmp, png);
        await rename(tmp, file);
      }),
    );
  }
  return out;
}
