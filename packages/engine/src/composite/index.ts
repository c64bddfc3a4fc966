import sharp, { type Sharp } from 'sharp';
import type { FaceBox, PhotoFace } from '@hookreel/contracts';
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
 * A photo's face points carried into the 576x1024 frame `frameOf` makes of it: the still a Draft merge composites
 * the product onto. The points were found once on the uploaded photo (decision 190); the frame is that photo scaled
 * to cover and cropped where sharp's attention strategy chose, which sharp reports back, so the same resize gives
 * the same crop and the points follow it without detecting again. Null when the points belong to another picture
 * (its size differs) or the file is turned by an EXIF orientation `frameOf` does not apply.
 */
export async function faceInFrame(photoPath: string, face: PhotoFace): Promise<PhotoFace | null> {
  const meta = await sharp(photoPath).metadata();
  if ((meta.orientation ?? 1) > 1) return null;
  if (meta.width !== face.imageSize.width || meta.height !== face.imageSize.height) return null;
  const { info } = await frameOf(photoPath).raw().toBuffer({ resolveWithObject: true });
  const s = Math.max(FRAME_WIDTH / meta.width, FRAME_HEIGHT / meta.height);
  const left = -(info.cropOffsetLeft ?? 0);
  const top = -(info.cropOffsetTop ?? 0);
  const box = (b: FaceBox): FaceBox => ({
    x: b.x * s - left,
    y: b.y * s - top,
    width: b.width * s,
    height: b.height * s,
  });
  return {
    ...face,
    imageSize: { width: FRAME_WIDTH, height: FRAME_HEIGHT },
    points: face.points.map(([x, y, z]) => [x * s - left, y * s - top, z * s] as [number, number, number]),
    box: box(face.box),
    faceBox: box(face.faceBox),
    mouthBox: box(face.mouthBox),
  };
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
