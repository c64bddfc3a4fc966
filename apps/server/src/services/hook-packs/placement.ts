import { createHash } from 'node:crypto';
import { CANVAS, FRAME } from '@hookreel/contracts';

/** Where the product sits on a 576x1024 character frame: its centre, scale (of the frame width) and rotation. */
export interface Placement {
  position_x: number;
  position_y: number;
  scale: number;
  rotation: number;
}

/**
 * The automatic placement: the product in the character's hand area. Procedural actors are half-body portraits
 * with the hands low and to one side of the frame, so the product goes there, at the default scale (docs/product.md#limits).
 * `attempt` > 0 (a 'product' regenerate) moves it deterministically within the hand area so each retry differs.
 */
export function autoPlacement(seed: string, attempt = 0): Placement {
  const base: Placement = {
    position_x: Math.round(FRAME.width * 0.64),
    position_y: Math.round(FRAME.height * 0.7),
    scale: CANVAS.productScaleDefault,
    rotation: 0,
  };
  if (attempt === 0) return base;
  const h = createHash('sha256').update(`${seed}#placement#${attempt}`).digest();
  const unit = (i: number) => (h[i] as number) / 255; // 0..1
  return clampPlacement({
    position_x: Math.round(FRAME.width * (0.34 + unit(0) * 0.36)),
    position_y: Math.round(FRAME.height * (0.6 + unit(1) * 0.18)),
    scale: Math.round((0.22 + unit(2) * 0.16) * 100) / 100,
    rotation: Math.round(-15 + unit(3) * 30),
  });
}

/** Keeps a placement inside sane bounds: scale within the canvas limits, the centre within the frame. */
export function clampPlacement(p: Placement): Placement {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return {
    position_x: clamp(p.position_x, 0, FRAME.width),
    position_y: clamp(p.position_y, 0, FRAME.height),
    scale: clamp(p.scale, CANVAS.productScaleMin, CANVAS.productScaleMax),
    rotation: clamp(p.rotation, -360, 360),
  };
}
