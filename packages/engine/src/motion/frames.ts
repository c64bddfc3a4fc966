import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { coloursOfSpec, sceneSvgBody, type ActorSpec } from '../actors/index.ts';
import { figureSvgBody, liftedProduct, REST_POSE, type HeldProduct, type RigPose } from '../actors/rig.ts';
import { FRAME_HEIGHT, FRAME_WIDTH } from '../types.ts';
import { writeFileAtomic } from '../util/files.ts';
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

/** A picture placed in the frame at whole pixels: its PNG (as a data URI) and its pixel box. */
interface PlacedImage {
  href: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The product's layers by product, place and scale: most poses hold it where the rest pose does (only the lift
 * gesture moves it), so an actor's frames draw it a few times, not once a pose. Bounded: a long-running worker
 * keeps only the latest.
 */
const productLayerMemo = new Map<string, Promise<PlacedImage[]>>();
const PRODUCT_LAYER_MEMO_MAX = 16;

/** The product as drawn for a pose (scaled, rotated) with its soft contact shadow, as images at pixel scale k. */
function productLayers(p: PreparedProduct, pose: RigPose, k: number): Promise<PlacedImage[]> {
  const lp = liftedProduct(p.held, pose);
  const key = JSON.stringify([p.key, lp, k]);
  let layers = productLayerMemo.get(key);
  if (!layers) {
    if (productLayerMemo.size >= PRODUCT_LAYER_MEMO_MAX) productLayerMemo.clear();
    layers = drawProductLayers(p, lp, k);
    productLayerMemo.set(key, layers);
    // A failed drawing is not kept: the next frame tries again.
    layers.catch(() => productLayerMemo.delete(key));
  }
  return layers;
}

async function drawProductLayers(
  p: PreparedProduct,
  lp: ReturnType<typeof liftedProduct>,
  k: number,
): Promise<PlacedImage[]> {
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
    .toBuffer({ resolveWithObject: true });
  const placed = (png: { data: Buffer; info: OutputInfo }, x: number, y: number): PlacedImage => ({
    href: `data:image/png;base64,${png.data.toString('base64')}`,
    left: x,
    top: y,
    width: png.info.width,
    height: png.info.height,
  });
  return [placed(shadow, left - pad + Math.round(6 * k), top - pad + Math.round(9 * k)), placed(rotated, left, top)];
}

/** An SVG image element drawing a placed picture pixel for pixel in a picture scaled k from frame coordinates. */
const imageElement = (l: PlacedImage, k: number): string =>
  `<image x="${l.left / k}" y="${l.top / k}" width="${l.width / k}" height="${l.height / k}" ` +
  `preserveAspectRatio="none" href="${l.href}"/>`;

/**
 * One rig frame: scene, figure, product (with shadow) and the fingers over it, at width x height. `transparent`
 * leaves the scene out (the figure alone, for checks). Everything is one SVG rasterised once: drawing the
 * figure straight onto the scene costs a third of rasterising it alone and compositing it over the scene
 * (decision 164).
 */
export async function renderRigFrame(input: {
  spec: ActorSpec;
  pose: RigPose;
  product: PreparedProduct | null;
  width: number;
  height: number;
  transparent?: boolean;
  /** The part of the frame to draw (frame coordinates), stretched to width x height: a camera's closer view. */
  view?: { x: number; y: number; w: number; h: number };
}): Promise<Sharp> {
  const { spec, pose, product, width, height } = input;
  const view = input.view ?? { x: 0, y: 0, w: FRAME_WIDTH, h: FRAME_HEIGHT };
  // Pixels per frame unit: the product's pictures are made at this scale, so a closer view gets them sharper.
  const k = width / view.w;
  const colours = coloursOfSpec(spec);
  const parts = [
    input.transparent ? '' : sceneSvgBody(spec.background, spec.seed),
    figureSvgBody(spec.traits, colours, pose, product?.held ?? null, 'back'),
  ];
  if (product) {
    for (const l of await productLayers(product, pose, k)) parts.push(imageElement(l, k));
    parts.push(figureSvgBody(spec.traits, colours, pose, product.held, 'front'));
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="${view.x} ${view.y} ${view.w} ${view.h}" preserveAspectRatio="none">${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg));
}

/** A rig frame as a single-frame Y4M file's bytes (what the encoder reads). */
export async function rigFrameY4m(input: Parameters<typeof renderRigFrame>[0]): Promise<Buffer> {
  const { data, info } = await (await renderRigFrame(input)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return y4mFrame(data, info.width, info.height);
}

/** Bump when the drawing changes, so cached frames are redrawn. */
const RIG_VERSION = 'rig-v8';
/** Read at each call, so a benchmark can compare a cold cache with a warm one in one process. */
export const rigCacheDir = (): string => process.env.HOOKREEL_RIG_CACHE ?? path.join(tmpdir(), 'hookreel-rig-cache');
/** An actor's frames unused this long are removed (a later render redraws them). */
const RIG_CACHE_MAX_AGE_MS = 2 * 24 * 3600_000;

/**
 * A pose frame on disk: the same pixels as a planar Y4M frame (what the encoder reads) and, for the rest pose
 * only, as a PNG (the poster's and the still's picture; no other pose is ever looked at as a picture).
 */
export interface RigFrameFiles {
  png: string | null;
  y4m: string;
}

/**
 * The frames of each pose (opaque, scene included) for an actor and product, rendered once and cached on disk by
 * what they depend on, so the videos of a pack (same actor, same product) share them. The encoder reads a Y4M
 * frame for a tenth of the CPU a PNG costs, once per pose segment (decision 096). Renders of the same actor
 * running at once in this process share the drawing: a frame another render is drawing, or has drawn since this
 * one looked, is not drawn again.
 */
export async function rigFrames(input: {
  spec: ActorSpec;
  product: PreparedProduct | null;
  poses: readonly RigPose[];
  width: number;
  height: number;
}): Promise<Map<string, RigFrameFiles>> {
  const id = createHash('sha256')
    .update(RIG_VERSION)
    .update(JSON.stringify([input.spec, input.product?.key ?? null, input.width, input.height]))
    .digest('hex')
    .slice(0, 24);
  const dir = path.join(rigCacheDir(), id);
  await mkdir(dir, { recursive: true });
  // The directory's time is its last use: pruning keeps what renders still use.
  const now = new Date();
  await utimes(dir, now, now);
  void pruneRigCache(now.getTime());
  const out = new Map<string, RigFrameFiles>();
  const unique = new Map(input.poses.map((p) => [poseKey(p), p]));
  const restKey = poseKey(REST_POSE);
  const todo: Array<[RigFrameFiles, RigPose]> = [];
  for (const [key, pose] of unique) {
    const files = { png: key === restKey ? path.join(dir, `${key}.png`) : null, y4m: path.join(dir, `${key}.y4m`) };
    out.set(key, files);
    try {
      await Promise.all([stat(files.y4m), files.png ? stat(files.png) : null]);
    } catch {
      todo.push([files, pose]);
    }
  }
  const draw = async ([files, pose]: [RigFrameFiles, RigPose]): Promise<void> => {
    drawnCount++;
    const frame = await renderRigFrame({ ...input, pose });
    const { data, info } = await frame.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (files.png) {
      const raw = { width: info.width, height: info.height, channels: 4 as const };
      await writeFileAtomic(files.png, await sharp(data, { raw }).png({ compressionLevel: 1 }).toBuffer());
    }
    await writeFileAtomic(files.y4m, y4mFrame(data, info.width, info.height));
  };
  await drawAFewAtOnce(todo, (item) => drawOnce(item[0].y4m, () => draw(item)));
  return out;
}

/** Frames drawn at once by one call. */
const DRAWING_AT_ONCE = 3;

/**
 * Runs `work` on each item, a few at a time, each starting as one ends: the rasterising of one drawing runs on
 * libvips' threads while this thread converts another's pixels.
 */
export async function drawAFewAtOnce<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(DRAWING_AT_ONCE, items.length) }, lane));
}

/** Frames being drawn in this process, by their Y4M file. */
const drawingInFlight = new Map<string, Promise<void>>();
let drawnCount = 0;

/** How many pose frames this process has drawn (a benchmark and the tests read it). */
export const rigFramesDrawn = (): number => drawnCount;

/**
 * Draws a frame unless another render in this process is drawing it (waited for) or has drawn it since this
 * render looked (the file is there now): two renders of one actor starting a little apart walk the same list.
 */
function drawOnce(file: string, draw: () => Promise<void>): Promise<void> {
  let pending = drawingInFlight.get(file);
  if (!pending) {
    pending = stat(file)
      .then(
        () => undefined,
        () => draw(),
      )
      .finally(() => drawingInFlight.delete(file));
    drawingInFlight.set(file, pending);
  }
  return pending;
}

let lastPrune = 0;
/** Removes actors' frame directories unused for two days; at most once an hour per process. */
async function pruneRigCache(now: number): Promise<void> {
  if (now - lastPrune < 3600_000) return;
  lastPrune = now;
  try {
    for (const entry of await readdir(rigCacheDir(), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(rigCacheDir(), entry.name);
      const { mtimeMs } = await stat(dir);
      if (now - mtimeMs > RIG_CACHE_MAX_AGE_MS) await rm(dir, { recursive: true, force: true });
    }
  } catch {
    /* pruning is housekeeping: a failure leaves files for the next prune */
  }
}

/** The header of a single-frame yuv420p Y4M file, up to its frame's pixels. */
export const y4mHeader = (width: number, height: number): Buffer =>
  Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\nFRAME\n`);

/**
 * One RGBA picture as a single-frame Y4M file (yuv420p, BT.601 limited range, chroma averaged over each 2x2
 * block): the conversion ffmpeg's `format=yuv420p` would do on every read of a PNG, done once.
 */
export function y4mFrame(rgba: Buffer, width: number, height: number): Buffer {
  const header = y4mHeader(width, height);
  const cw = width >> 1;
  const ch = height >> 1;
  const out = Buffer.allocUnsafe(header.length + width * height + 2 * cw * ch);
  header.copy(out, 0);
  const yOff = header.length;
  const uOff = yOff + width * height;
  const vOff = uOff + cw * ch;
  const stride = width * 4;
  // One pass over 2x2 blocks: each pixel is read once for its luma and its block's chroma (half the time of a
  // luma pass and a chroma pass).
  for (let cy = 0; cy < ch; cy++) {
    let i = 2 * cy * stride;
    let yo = yOff + 2 * cy * width;
    let co = cy * cw;
    for (let cx = 0; cx < cw; cx++, i += 8, yo += 2, co++) {
      const j = i + stride;
      const r0 = rgba[i]!,
        g0 = rgba[i + 1]!,
        b0 = rgba[i + 2]!;
      const r1 = rgba[i + 4]!,
        g1 = rgba[i + 5]!,
        b1 = rgba[i + 6]!;
      const r2 = rgba[j]!,
        g2 = rgba[j + 1]!,
        b2 = rgba[j + 2]!;
      const r3 = rgba[j + 4]!,
        g3 = rgba[j + 5]!,
        b3 = rgba[j + 6]!;
      out[yo] = ((66 * r0 + 129 * g0 + 25 * b0 + 128) >> 8) + 16;
      out[yo + 1] = ((66 * r1 + 129 * g1 + 25 * b1 + 128) >> 8) + 16;
      out[yo + width] = ((66 * r2 + 129 * g2 + 25 * b2 + 128) >> 8) + 16;
      out[yo + width + 1] = ((66 * r3 + 129 * g3 + 25 * b3 + 128) >> 8) + 16;
      const r = (r0 + r1 + r2 + r3 + 2) >> 2;
      const g = (g0 + g1 + g2 + g3 + 2) >> 2;
      const b = (b0 + b1 + b2 + b3 + 2) >> 2;
      out[uOff + co] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
      out[vOff + co] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
    }
  }
  return out;
}
