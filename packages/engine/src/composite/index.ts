import sharp, { type Sharp } from 'sharp';
import { FRAME_HEIGHT, FRAME_WIDTH } from '../types.ts';
import { produceAtomic } from '../util/files.ts';

/** Where the product goes in the 576x1024 frame: centre point, scale of its natural size, degrees clockwise. */
export interface Placement {
  position_x: number;
  position_y: number;
  scale: number;
  rotation: number;
}

/** Any actor image as the 576x1024 frame every placement is expressed in. */
export function frameOf(actorPath: string): Sharp {
  return sharp(actorPath).resize(FRAME_WIDTH, FRAME_HEIGHT, { fit: 'cover', position: 'attention' });
}

/**
 * Composites a cut-out product (RGBA) onto an actor at a placement, the way the placement editor draws it:
 * the product at `scale` × its natural size, rotated about its centre, centred at (position_x, position_y).
 * Parts outside the frame are clipped. Writes a PNG, and optionally the product's mask in the frame.
 */
export async function compositeProduct(input: {
  actorPath: string;
  productPath: string;
  placement: Placement;
  outPath: string;
  maskPath?: string;
}): Promise<void> {
  const { placement: p } = input;
  const meta = await sharp(input.productPath).metadata();
  const w = Math.max(1, Math.round((meta.width ?? 1) * p.scale));
  const h = Math.max(1, Math.round((meta.height ?? 1) * p.scale));
  const product = await sharp(input.productPath)
    .ensureAlpha()
    .resize(w, h)
    .rotate(p.rotation, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const layer = await clipToFrame(product.data, product.info.width, product.info.height, p.position_x, p.position_y);
  const actor = await frameOf(input.actorPath).png().toBuffer();
  await produceAtomic(input.outPath, async (tmp) => {
    await sharp(actor)
      .composite(layer ? [{ input: layer.buffer, left: layer.left, top: layer.top }] : [])
      .png()
      .toFile(tmp);
  });
  if (input.maskPath) {
    // The product's silhouette in white on black, in frame coordinates.
    const silhouette = layer
      ? await sharp(layer.buffer).ensureAlpha().linear([0, 0, 0, 1], [255, 255, 255, 0]).png().toBuffer()
      : null;
    await sharp({ create: { width: FRAME_WIDTH, height: FRAME_HEIGHT, channels: 3, background: '#000' } })
      .composite(silhouette && layer ? [{ input: silhouette, left: layer.left, top: layer.top }] : [])
      .png()
      .toFile(input.maskPath);
  }
}

/** The part of a layer centred at (cx, cy) that falls inside the frame, with its top-left position. */
async function clipToFrame(
  png: Buffer,
  width: number,
  height: number,
  cx: number,
  cy: number,
): Promise<{ buffer: Buffer; left: number; top: number } | null> {
  const left = Math.round(cx - width / 2);
  const top = Math.round(cy - height / 2);
  const x0 = Math.max(0, left);
  const y0 = Math.max(0, top);
  const x1 = Math.min(FRAME_WIDTH, left + width);
  const y1 = Math.min(FRAME_HEIGHT, top + height);
  if (x1 <= x0 || y1 <= y0) return null;
  const buffer = await sharp(png)
    .extract({ left: x0 - left, top: y0 - top, width: x1 - x0, height: y1 - y0 })
    .png()
    .toBuffer();
  return { buffer, left: x0, top: y0 };
}
