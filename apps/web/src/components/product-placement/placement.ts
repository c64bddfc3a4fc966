import { CANVAS, FRAME, type MaskPlacement, MESSAGES } from '@hookreel/contracts';

/**
 * Product placement in the 576x1024 reference frame: (position_x, position_y) is the centre of the product,
 * `scale` multiplies the product image's natural size, `rotation` is in degrees, clockwise.
 */
export type Placement = MaskPlacement;

export const clampScale = (s: number): number =>
  Math.min(
    CANVAS.productScaleMax,
    Math.max(CANVAS.productScaleMin, Number.isFinite(s) ? s : CANVAS.productScaleDefault),
  );

export const clampToFrame = (x: number, y: number): { x: number; y: number } => ({
  x: Math.min(FRAME.width, Math.max(0, x)),
  y: Math.min(FRAME.height, Math.max(0, y)),
});

export const normaliseRotation = (deg: number): number => {
  const r = (((deg % 360) + 540) % 360) - 180;
  return Object.is(r, -0) ? 0 : r;
};

/** A sensible starting placement: inside the avatar's saved bounds when there are some, else lower middle. */
export function defaultPlacement(
  bounds?: { x: number | null; y: number | null; width: number | null; height: number | null } | null,
): Placement {
  if (bounds && bounds.x !== null && bounds.y !== null && bounds.width && bounds.height) {
    const c = clampToFrame(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
    return { position_x: Math.round(c.x), position_y: Math.round(c.y), scale: CANVAS.productScaleDefault, rotation: 0 };
  }
  return {
    position_x: FRAME.width / 2,
    position_y: Math.round(FRAME.height * 0.62),
    scale: CANVAS.productScaleDefault,
    rotation: 0,
  };
}

/** Whether a frame point lies on the (rotated) product of the given natural size. */
export function hitsProduct(p: Placement, natural: { width: number; height: number }, x: number, y: number): boolean {
  const w = natural.width * p.scale;
  const h = natural.height * p.scale;
  const rad = (-p.rotation * Math.PI) / 180;
  const dx = x - p.position_x;
  const dy = y - p.position_y;
  const lx = dx * Math.cos(rad) - dy * Math.sin(rad);
  const ly = dx * Math.sin(rad) + dy * Math.cos(rad);
  return Math.abs(lx) <= w / 2 && Math.abs(ly) <= h / 2;
}

/** Draws the product with the placement transform onto a context whose units are frame units. */
export function drawProduct(
  ctx: CanvasRenderingContext2D,
  img: CanvasImageSource & { naturalWidth: number; naturalHeight: number },
  p: Placement,
): void {
  const w = img.naturalWidth * p.scale;
  const h = img.naturalHeight * p.scale;
  ctx.save();
  ctx.translate(p.position_x, p.position_y);
  ctx.rotate((p.rotation * Math.PI) / 180);
  ctx.drawImage(img, -w / 2, -h / 2, w, h);
  ctx.restore();
}

/** Where a pointer is on a canvas that shows the whole frame, in frame pixels (however large the canvas is drawn). */
export function framePoint(e: { clientX: number; clientY: number; currentTarget: Element }): { x: number; y: number } {
  const r = e.currentTarget.getBoundingClientRect();
  return {
    x: ((e.clientX - r.left) / (r.width || 1)) * FRAME.width,
    y: ((e.clientY - r.top) / (r.height || 1)) * FRAME.height,
  };
}

/** Draws `img` covering the w×h area (like object-fit: cover). */
export function drawCover(
  ctx: CanvasRenderingContext2D,
  img: CanvasImageSource & { naturalWidth: number; naturalHeight: number },
  w: number,
  h: number,
): void {
  const s = Math.max(w / img.naturalWidth, h / img.naturalHeight);
  const dw = img.naturalWidth * s;
  const dh = img.naturalHeight * s;
  ctx.drawImage(img, (w - dw) / 2, (h - dh) / 2, dw, dh);
}

export class MaskError extends Error {}

/**
 * Renders the mask PNG (CANVAS.maskFileName): the frame in black with the product's silhouette in white at
 * the placement. Throws MaskError with the mask messages from contracts.
 */
export function renderMask(
  img: CanvasImageSource & { naturalWidth: number; naturalHeight: number },
  p: Placement,
): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = FRAME.width;
  canvas.height = FRAME.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new MaskError(MESSAGES.masks.contextFailed));
  drawProduct(ctx, img, p);
  ctx.globalCompositeOperation = 'source-in';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, FRAME.width, FRAME.height);
  ctx.globalCompositeOperation = 'destination-over';
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, FRAME.width, FRAME.height);
  return new Promise((resolve, reject) => {
    try {
      canvas.toBlob((blob) => {
        if (!blob) reject(new MaskError(MESSAGES.masks.failed));
        else resolve(new File([blob], CANVAS.maskFileName, { type: 'image/png' }));
      }, 'image/png');
    } catch {
      reject(new MaskError(MESSAGES.masks.failed)); // e.g. a cross-origin image tainted the canvas
    }
  });
}
