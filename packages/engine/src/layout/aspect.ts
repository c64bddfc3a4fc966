import { ASPECT_SIZES, type Aspect, type Box } from '@hookreel/contracts';
import type { CameraShot } from '../motion/timeline.ts';
import { PUNCH_IN_ZOOM } from '../motion/timeline.ts';
import { VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';
import { eyesToMouth, safeZone, type TextBlock, type VideoLayout } from './index.ts';

/**
 * Re-composing the 9:16 master picture for the other frame shapes (docs/video-design.md#aspects).
 *
 * The master's picture (rig poses through the camera, or the photo with its drift) is 720 px wide. A 4:5 or 1:1
 * frame is cut from it at full width (720x900, 720x720), following face and product shot by shot, and scaled up
 * to the output size. Text is laid out again for that cut in master pixels (the "working" frame), so the fonts,
 * paddings and gaps keep the proportions they have on 9:16, and libass scales the whole text layer to the
 * output (PlayRes is the working size). Voice, rig and camera are not redone.
 */

/** The working frame of a shape: master pixels, full master width, the shape's proportions. */
export function workingFrame(aspect: Aspect): { width: number; height: number; scale: number } {
  const out = ASPECT_SIZES[aspect];
  const height = Math.round((VIDEO_WIDTH * out.height) / out.width);
  return { width: VIDEO_WIDTH, height: Math.min(VIDEO_HEIGHT, height), scale: out.width / VIDEO_WIDTH };
}

/**
 * Where text may go in a frame of this shape (working pixels). 9:16 is shown full screen under the platform's
 * buttons and captions (safeZone). 4:5 and 1:1 are feed placements: the platform draws its interface around the
 * video rather than over it, so only a margin is kept (6% of the width at the sides and top, 8% at the bottom
 * where a feed's progress bar and sound toggle sit).
 */
export function safeZoneFor(aspect: Aspect, width: number, height: number): Box {
  if (aspect === '9:16') return safeZone(width, height);
  const side = Math.round(width * 0.06);
  const top = Math.round(width * 0.06);
  const bottom = Math.round(width * 0.08);
  return { x: side, y: top, w: width - 2 * side, h: height - top - bottom };
}

/**
 * The rig's camera for a shorter frame: the CTA close-up zooms until the product fills 45% of the 9:16 picture's
 * height, which in a 720 px tall cut leaves no line free for the caption. Its zoom is scaled by the cut's share of
 * the master's height, so the product fills the same share of the cut (at least zoom 1: never wider than the
 * pose frames). The push-in and the punch-in stay as they are.
 */
export function shotsForFrame(shots: readonly CameraShot[], cropHeight: number): CameraShot[] {
  const k = cropHeight / VIDEO_HEIGHT;
  return shots.map((s) =>
    Math.max(s.zoomFrom, s.zoomTo) > PUNCH_IN_ZOOM + 0.01
      ? { ...s, zoomFrom: Math.max(1, s.zoomFrom * k), zoomTo: Math.max(1, s.zoomTo * k) }
      : s,
  );
}

export interface CropShot {
  startSec: number;
  /** Top of the cut in the master frame. */
  y: number;
}

/**
 * Where to cut the working frame from the master, one position per shot (between camera cuts): face and product
 * of the whole shot fit in, centred, with the face kept whole before the product when both cannot fit.
 */
export function cropShots(input: {
  cropHeight: number;
  durationSec: number;
  cuts: readonly number[];
  /** Face (and mouth) and product in the master at time t (camera applied). */
  view: (t: number) => { face: Box; mouth?: Box; product: Box | null };
  /** Whether the shot at t is about the product (the CTA close-up): the cut then keeps the product whole. */
  productShot?: (t: number) => boolean;
}): CropShot[] {
  const { cropHeight: Hc } = input;
  const bounds = [0, ...input.cuts.filter((c) => c > 0 && c < input.durationSec), input.durationSec];
  const shots: CropShot[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i]!;
    const to = bounds[i + 1]!;
    let top = Infinity;
    let bottom = -Infinity;
    let faceTop = Infinity;
    let productTop = Infinity;
    let productBottom = -Infinity;
    let faceArea = 0;
    let productArea = 0;
    // The eyes and the mouth while they are in the master's picture (the CTA close-up leaves them out).
    let eyesTop = Infinity;
    let mouthBottom = -Infinity;
    // Where the face ends when the master's own picture cuts through it (a close-up framed under the chin).
    let cutFaceBottom = -Infinity;
    let cutMouthBottom = -Infinity;
    for (let t = from; t < to; t += 1 / 15) {
      const v = input.view(t);
      for (const b of [v.face, ...(v.product ? [v.product] : [])]) {
        top = Math.min(top, b.y);
        bottom = Math.max(bottom, b.y + b.h);
      }
      faceTop = Math.min(faceTop, v.face.y);
      const features = eyesToMouth(v.face, v.mouth);
      if (features.y >= 0 && features.y + features.h <= VIDEO_HEIGHT) {
        eyesTop = Math.min(eyesTop, features.y);
        mouthBottom = Math.max(mouthBottom, features.y + features.h);
      } else if (features.y < 0 && features.y + features.h > 0) {
        cutFaceBottom = Math.max(cutFaceBottom, v.face.y + v.face.h);
        cutMouthBottom = Math.max(cutMouthBottom, features.y + features.h);
      }
      faceArea = Math.max(faceArea, visibleArea(v.face));
      if (v.product) {
        productTop = Math.min(productTop, v.product.y);
        productBottom = Math.max(productBottom, v.product.y + v.product.h);
        productArea = Math.max(productArea, visibleArea(v.product));
      }
    }
    if (!Number.isFinite(top)) continue;
    // Centre what matters. When face and product do not both fit: a shot about the product (the CTA close-up,
    // where the product fills the picture and the face is cut by the master frame) keeps the product whole;
    // otherwise the cut starts just above the face (a cut chin reads worse than a cut product base).
    let y = (top + bottom) / 2 - Hc / 2;
    // A talking head without a product sits a little above the middle, as a camera operator frames one: the
    // shoulders stay in the picture and the captions have the chest to sit on.
    if (!Number.isFinite(productTop)) y = (top + bottom) / 2 - Hc * 0.42;
    if (bottom - top > Hc) {
      const aboutProduct = (input.productShot?.(from) ?? false) || productArea > faceArea * 1.5 || faceTop <= 0;
      y =
        aboutProduct && Number.isFinite(productTop)
          ? (productTop + productBottom) / 2 - Hc / 2
          : Math.max(top, faceTop) - 12;
    }
    // Whatever else is cut, the eyes and the mouth stay in (one rule for every frame shape; decision 215); a face
    // the master's picture already cuts through is left out whole, the cut starting under the chin (or, when
    // that would cut off the product's base, under the mouth), as the master's own close-up does.
    if (Number.isFinite(eyesTop) && mouthBottom - eyesTop <= Hc)
      y = Math.max(mouthBottom + 4 - Hc, Math.min(eyesTop - 4, y));
    else if (Number.isFinite(cutFaceBottom)) {
      const underChin =
        Number.isFinite(productBottom) && productBottom - cutFaceBottom > Hc ? cutMouthBottom : cutFaceBottom;
      y = Math.max(y, underChin + 2);
    }
    shots.push({ startSec: from, y: Math.round(Math.max(0, Math.min(VIDEO_HEIGHT - Hc, y))) });
  }
  return shots.length ? shots : [{ startSec: 0, y: Math.round((VIDEO_HEIGHT - Hc) / 2) }];
}

/** Area of a box inside the master frame. */
const visibleArea = (b: Box): number =>
  Math.max(0, Math.min(VIDEO_WIDTH, b.x + b.w) - Math.max(0, b.x)) *
  Math.max(0, Math.min(VIDEO_HEIGHT, b.y + b.h) - Math.max(0, b.y));

/** The cut's top at time t. */
export const cropYAt = (shots: readonly CropShot[], t: number): number =>
  [...shots].reverse().find((s) => t >= s.startSec - 1e-6)?.y ?? shots[0]!.y;

/** The cut's top as an ffmpeg expression of t (crop's y, evaluated every frame; quote it in a filter graph). */
export function cropYExpression(shots: readonly CropShot[]): string {
  let expr = String(shots[shots.length - 1]!.y);
  for (let i = shots.length - 2; i >= 0; i--)
    expr = `if(lt(t,${shots[i + 1]!.startSec.toFixed(4)}),${shots[i]!.y},${expr})`;
  return expr;
}

/** A master box in the working frame of a cut whose top is at y (clamped to the frame). */
export function intoCut(b: Box, y: number, width: number, height: number): Box {
  const y0 = Math.max(0, b.y - y);
  const y1 = Math.min(height, b.y + b.h - y);
  const x0 = Math.max(0, b.x);
  const x1 = Math.min(width, b.x + b.w);
  return { x: x0, y: Math.min(y0, height), w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

const scaleBox = (b: Box, k: number): Box => ({ x: b.x * k, y: b.y * k, w: b.w * k, h: b.h * k });
const scaleBlock = <T extends TextBlock>(b: T, k: number): T => ({
  ...b,
  box: scaleBox(b.box, k),
  fontSize: b.fontSize * k,
  lineHeight: b.lineHeight * k,
});

/** A layout in output pixels: every box, font size and line height times k (the report measures these). */
export function scaleLayout(layout: VideoLayout, k: number): VideoLayout {
  if (k === 1) return layout;
  const opt = (b: Box | null) => (b ? scaleBox(b, k) : null);
  return {
    ...layout,
    width: Math.round(layout.width * k),
    height: Math.round(layout.height * k),
    safe: scaleBox(layout.safe, k),
    face: scaleBox(layout.face, k),
    mouth: scaleBox(layout.mouth, k),
    body: scaleBox(layout.body, k),
    product: opt(layout.product),
    hand: opt(layout.hand),
    views: layout.views.map((v) => ({
      t: v.t,
      face: scaleBox(v.face, k),
      product: opt(v.product),
      ...(v.mouth ? { mouth: scaleBox(v.mouth, k) } : {}),
      ...(v.hand ? { hand: scaleBox(v.hand, k) } : {}),
    })),
    hook: layout.hook.map((h) => scaleBlock(h, k)),
    captions: layout.captions.map((c) => scaleBlock(c, k)),
    captionRegion: opt(layout.captionRegion),
    watermark: layout.watermark ? scaleBlock(layout.watermark, k) : null,
    endCard: layout.endCard
      ? { ...layout.endCard, product: opt(layout.endCard.product), cta: scaleBlock(layout.endCard.cta, k) }
      : null,
    outro: layout.outro ? { ...layout.outro, logo: scaleBox(layout.outro.logo, k) } : null,
  };
}
