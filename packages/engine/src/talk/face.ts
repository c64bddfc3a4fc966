import { MESH, type Point3 } from '../photo/landmarks.ts';

/**
 * The photo actor's face as a deformable mesh: how each state (mouth shape, eyelids and gaze, head offset) moves
 * the 478 face points and rings of points around the head. Displacements are smooth functions of a point's place
 * in the face's own axes (the eye line and the face's down direction), zero at the edge of the warped region, so
 * the warped crop meets the untouched photo without a seam.
 */

/** Mouth shapes (visemes) of the photo actor; 'rest' is closed lips (also m, b, p). */
export const PHOTO_VISEMES = ['rest', 'aa', 'eh', 'ee', 'oh', 'oo', 'fv', 'th', 'ss', 'kg'] as const;
export type PhotoViseme = (typeof PHOTO_VISEMES)[number];

export interface MouthParams {
  /** Opening at the lips' middle, in mouth widths (0 closed, ~0.45 a wide "ah"). */
  open: number;
  /** Mouth width over the photo's (1 unchanged; >1 spread as in "ee", <1 rounded as in "oo"). */
  width: number;
  /** Upper lip raised, in mouth widths (shows the upper teeth). */
  lift: number;
  /** Lower lip tucked up under the upper teeth (f, v), 0–1. */
  tuck: number;
  /** Tongue tip showing behind the upper teeth (th, l), 0–1. */
  tongue: number;
}

export const MOUTH_SHAPES: Record<PhotoViseme, MouthParams> = {
  rest: { open: 0, width: 1, lift: 0, tuck: 0, tongue: 0 },
  aa: { open: 0.33, width: 1.0, lift: 0.03, tuck: 0, tongue: 0 },
  eh: { open: 0.22, width: 1.06, lift: 0.03, tuck: 0, tongue: 0 },
  ee: { open: 0.12, width: 1.12, lift: 0.04, tuck: 0, tongue: 0 },
  oh: { open: 0.27, width: 0.86, lift: 0.02, tuck: 0, tongue: 0 },
  oo: { open: 0.14, width: 0.78, lift: 0.02, tuck: 0, tongue: 0 },
  fv: { open: 0.06, width: 1.02, lift: 0.05, tuck: 1, tongue: 0 },
  th: { open: 0.16, width: 1.02, lift: 0.03, tuck: 0, tongue: 1 },
  ss: { open: 0.06, width: 1.06, lift: 0.05, tuck: 0, tongue: 0 },
  kg: { open: 0.2, width: 1.0, lift: 0.02, tuck: 0, tongue: 0 },
};

export const EYE_STATES = ['open', 'left', 'right', 'half', 'closed'] as const;
export type EyeState = (typeof EYE_STATES)[number];

/** Head offsets: degrees of tilt in the picture's plane, and a move down (nod) or up (breath) in face lengths. */
export interface HeadOffset {
  tilt: number;
  down: number;
}

/** One drawable state of the photo actor's face. */
export interface FaceState {
  mouth: PhotoViseme;
  /** How far into the shape (1 full, 0.5 half way from rest): eases between shapes. */
  amount: number;
  eyes: EyeState;
  head: HeadOffset;
}

export const faceStateKey = (s: FaceState): string =>
  `${s.mouth}${Math.round(s.amount * 100)}-${s.eyes}-${s.head.tilt.toFixed(2)}_${s.head.down.toFixed(3)}`;

const smooth = (e0: number, e1: number, x: number): number => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

// Inner lips: lower contour (picture-left corner to right) paired with the upper point above it.
const INNER_LOWER = [95, 88, 178, 87, 14, 317, 402, 318, 324];
const INNER_UPPER = [191, 80, 81, 82, 13, 312, 311, 310, 415];
const OUTER_LOWER = [146, 91, 181, 84, 17, 314, 405, 321, 375];
const OUTER_UPPER = [185, 40, 39, 37, 0, 267, 269, 270, 409];
const INNER_CORNERS = [78, 308];
// Eyes: upper lid contour and the lower one, corner to corner (same order), for each eye.
const EYES = [
  {
    upper: [33, 246, 161, 160, 159, 158, 157, 173, 133],
    lower: [33, 7, 163, 144, 145, 153, 154, 155, 133],
    iris: [468, 469, 470, 471, 472],
  },
  {
    upper: [362, 398, 384, 385, 386, 387, 388, 466, 263],
    lower: [362, 382, 381, 380, 374, 373, 390, 249, 263],
    iris: [473, 474, 475, 476, 477],
  },
];

/** Piecewise-linear profile through (a, v) samples sorted by a; flat beyond the ends. */
function profile(samples: Array<[number, number]>): (a: number) => number {
  samples.sort((p, q) => p[0] - q[0]);
  return (a) => {
    if (a <= samples[0]![0]) return samples[0]![1];
    for (let i = 1; i < samples.length; i++) {
      const [a1, v1] = samples[i]!;
      if (a <= a1) {
        const [a0, v0] = samples[i - 1]!;
        return v0 + ((v1 - v0) * (a - a0)) / Math.max(1e-9, a1 - a0);
      }
    }
    return samples[samples.length - 1]![1];
  };
}

export type PointClass = 'upper' | 'lower' | 'corner' | 'other';

/** The face's axes and measures in picture pixels, taken from the points once per actor. */
export class FaceGeometry {
  readonly L: number;
  readonly mw: number;
  readonly mouth: [number, number];
  readonly ex: [number, number];
  readonly ey: [number, number];
  readonly centre: [number, number];
  readonly chinB: number;
  /** Photo's inner-lip opening at the middle, in pixels. */
  readonly gap0: number;
  /** The seam (middle of the opening) in face axes: b as a function of a. */
  readonly seam: (a: number) => number;
  readonly upperB: (a: number) => number;
  readonly lowerB: (a: number) => number;
  readonly classes: Map<number, PointClass>;

  constructor(readonly points: ReadonlyArray<readonly [number, number]>) {
    const p = (i: number) => points[i]!;
    const l = p(61);
    const r = p(291);
    this.mouth = [(l[0] + r[0]) / 2, (l[1] + r[1]) / 2];
    // Outer eye corners (present whether or not the iris points were found).
    const eyeL = p(MESH.leftEye.corners[0]);
    const eyeR = p(MESH.rightEye.corners[1]);
    const ax = eyeR[0] - eyeL[0];
    const ay = eyeR[1] - eyeL[1];
    // Along the eyes, pointing the way the mouth's picture-left corner to its right corner does.
    const n = (Math.hypot(ax, ay) || 1) * (ax * (r[0] - l[0]) + ay * (r[1] - l[1]) < 0 ? -1 : 1);
    this.ex = [ax / n, ay / n];
    this.ey = [-this.ex[1], this.ex[0]];
    const top = p(MESH.foreheadTop);
    const chin = p(MESH.chin);
    this.L = Math.hypot(top[0] - chin[0], top[1] - chin[1]);
    this.mw = Math.hypot(r[0] - l[0], r[1] - l[1]) / 2;
    this.centre = [(top[0] + chin[0]) / 2, (top[1] + chin[1]) / 2];
    this.chinB = this.local(chin)[1];
    const lower = INNER_LOWER.map((i) => this.local(p(i)));
    const upper = INNER_UPPER.map((i) => this.local(p(i)));
    const corners = INNER_CORNERS.map((i) => this.local(p(i)));
    this.gap0 = Math.max(0, lower[4]![1] - upper[4]![1]);
    this.upperB = profile([
      ...upper.map(([a, b]): [number, number] => [a, b]),
      ...corners.map(([a, b]): [number, number] => [a, b]),
    ]);
    this.lowerB = profile([
      ...lower.map(([a, b]): [number, number] => [a, b]),
      ...corners.map(([a, b]): [number, number] => [a, b]),
    ]);
    this.seam = (a) => (this.upperB(a) + this.lowerB(a)) / 2;
    this.classes = new Map();
    for (const i of [...INNER_UPPER, ...OUTER_UPPER]) this.classes.set(i, 'upper');
    for (const i of [...INNER_LOWER, ...OUTER_LOWER]) this.classes.set(i, 'lower');
    for (const i of [...INNER_CORNERS, 61, 291]) this.classes.set(i, 'corner');
  }

  /** A picture point in face axes (a along the eyes, b down the face), from the mouth's centre. */
  local(q: readonly [number, number]): [number, number] {
    const dx = q[0] - this.mouth[0];
    const dy = q[1] - this.mouth[1];
    return [dx * this.ex[0] + dy * this.ex[1], dx * this.ey[0] + dy * this.ey[1]];
  }

  /** Face axes back to picture pixels. */
  picture(a: number, b: number): [number, number] {
    return [this.mouth[0] + a * this.ex[0] + b * this.ey[0], this.mouth[1] + a * this.ex[1] + b * this.ey[1]];
  }
}

/** Vertical moves (face axes, pixels) of the upper and lower inner lip at a for a mouth shape. */
export function lipMoves(
  g: FaceGeometry,
  m: MouthParams,
  amount: number,
): { up: (a: number) => number; low: (a: number) => number; half: number } {
  const W = 2 * g.mw;
  const half = g.mw * (1 + (m.width - 1) * amount);
  const open = m.open * amount * W;
  const lift = m.lift * amount * W;
  const tuck = m.tuck * amount;
  const shape = (a: number) => {
    const t = Math.min(1, Math.abs(a) / g.mw);
    // Rounded shapes open as a circle, others as a lens.
    return m.width < 0.95 ? Math.sqrt(Math.max(0, 1 - t ** 2)) : Math.max(0, 1 - t ** 2) ** 0.75;
  };
  const photoGap = (a: number) => Math.max(0, g.lowerB(a) - g.upperB(a));
  const up = (a: number) => {
    const d = shape(a) * open - photoGap(a);
    // Closing a photo's open mouth brings the upper lip down a third of the way; opening moves the jaw only.
    return (d < 0 ? -0.35 * d : 0) - lift * shape(a);
  };
  const low = (a: number) => {
    const d = shape(a) * open - photoGap(a);
    const jaw = d + (d < 0 ? -0.35 * d : 0);
    // A tucked lower lip rises to the upper teeth (closing the opening it had).
    return jaw - tuck * Math.max(0, jaw + photoGap(a) - 0.02 * W) * 0.9;
  };
  return { up, low, half };
}

/** Where each control point goes in a state (picture pixels), from its rest place. */
export function moveFace(
  g: FaceGeometry,
  rest: Float64Array,
  classes: ReadonlyArray<PointClass>,
  s: FaceState,
): Float64Array {
  const out = new Float64Array(rest.length);
  const m = MOUTH_SHAPES[s.mouth];
  const lips = lipMoves(g, m, s.amount);
  const mw = g.mw;
  const widthK = (m.width - 1) * s.amount;
  const cornerDy = (lips.up(mw * 0.999) + lips.low(mw * 0.999)) / 2;
  const chinDy = lips.low(0) * 0.9;
  const eyes = eyeMovers(g, s.eyes);
  const tilt = (s.head.tilt * Math.PI) / 180;
  const pivot = g.picture(0, g.chinB + 0.35 * g.L);
  const Rx = 0.66 * g.L;
  const Ry = 0.78 * g.L;
  for (let i = 0; i < rest.length / 2; i++) {
    const x = rest[2 * i]!;
    const y = rest[2 * i + 1]!;
    const [a, b] = g.local([x, y]);
    const cls = classes[i] ?? 'other';
    const seam = g.seam(a);
    const above = cls === 'upper' || (cls === 'other' && b < seam);
    const inside = Math.abs(a) < mw;
    let dy: number;
    if (cls === 'corner') dy = cornerDy;
    else if (above) {
      const atSeam = inside ? lips.up(a) : cornerDy * (1 - smooth(mw, 1.8 * mw, Math.abs(a)));
      dy = atSeam * (1 - smooth(0.3 * mw, 0.95 * mw, seam - b));
    } else {
      const atSeam = inside ? lips.low(a) : cornerDy * (1 - smooth(mw, 1.8 * mw, Math.abs(a)));
      const jaw = chinDy * (1 - smooth(1.0 * mw, 2.4 * mw, Math.abs(a)));
      const below = b - seam;
      dy = atSeam + (jaw - atSeam) * smooth(0.1 * mw, Math.max(0.2 * mw, g.chinB - seam), below);
      // The neck follows the jaw, fading down.
      if (b > g.chinB) dy *= 1 - smooth(0, 0.45 * g.L, b - g.chinB) * 0.8;
    }
    const rm = Math.hypot(a / mw, (b - seam) / (0.85 * mw));
    const dx = widthK * a * (1 - smooth(1.0, 2.1, rm));
    let [nx, ny] = [x + dx * g.ex[0] + dy * g.ey[0], y + dx * g.ex[1] + dy * g.ey[1]];
    const e = eyes(i, nx, ny);
    nx = e[0];
    ny = e[1];
    // Head: a turn about the neck and a move along the face's axis, fading out around the head.
    const hx = (x - g.centre[0]) * g.ex[0] + (y - g.centre[1]) * g.ex[1];
    const hy = (x - g.centre[0]) * g.ey[0] + (y - g.centre[1]) * g.ey[1] + 0.08 * g.L;
    const wh = 1 - smooth(1.02, 1.55, Math.hypot(hx / Rx, hy / Ry));
    if (wh > 0) {
      const t = tilt * wh;
      const c = Math.cos(t);
      const sn = Math.sin(t);
      const rx = nx - pivot[0];
      const ry = ny - pivot[1];
      nx = pivot[0] + rx * c - ry * sn + s.head.down * g.L * wh * g.ey[0];
      ny = pivot[1] + rx * sn + ry * c + s.head.down * g.L * wh * g.ey[1];
    }
    out[2 * i] = nx;
    out[2 * i + 1] = ny;
  }
  return out;
}

/** The eyelids and irises of a state as a point mover: (index, x, y) → moved (x, y). */
function eyeMovers(g: FaceGeometry, eyes: EyeState): (i: number, x: number, y: number) => [number, number] {
  const close = eyes === 'closed' ? 1 : eyes === 'half' ? 0.5 : 0;
  const gaze = eyes === 'left' ? -1 : eyes === 'right' ? 1 : 0;
  if (close === 0 && gaze === 0) return (_i, x, y) => [x, y];
  const p = (i: number) => g.points[i]!;
  const models = EYES.map((e) => {
    const up = e.upper.map((i) => g.local(p(i)));
    const lo = e.lower.map((i) => g.local(p(i)));
    const a0 = Math.min(...up.map((q) => q[0]));
    const a1 = Math.max(...up.map((q) => q[0]));
    const ub = profile(up.map(([a, b]): [number, number] => [a, b]));
    const lb = profile(lo.map(([a, b]): [number, number] => [a, b]));
    const width = a1 - a0;
    const iris = new Set(e.iris);
    return { a0, a1, ub, lb, width, iris };
  });
  return (i, x, y) => {
    const [a, b] = g.local([x, y]);
    let da = 0;
    let db = 0;
    for (const e of models) {
      const mid = (e.a0 + e.a1) / 2;
      const hw = e.width / 2;
      const fall = 1 - smooth(hw * 0.75, hw * 1.35, Math.abs(a - mid));
      if (fall <= 0) continue;
      const u = e.ub(a);
      const l = e.lb(a);
      const gap = Math.max(0, l - u);
      // The lid is painted over the eye (actor.ts, paintLids); the warp only lets the skin above it follow a
      // little, so the eye's inside is never squashed into a dark smear.
      const upMove = close * 0.12 * gap;
      const loMove = 0;
      if (e.iris.has(i)) da += gaze * 0.22 * hw * (1 - close);
      if (b <= u) db += upMove * fall * (1 - smooth(0, 1.6 * e.width * 0.35, u - b));
      else if (b >= l) db += loMove * fall * (1 - smooth(0, e.width * 0.35, b - l));
      else {
        const t = gap > 0 ? (b - u) / gap : 0;
        db += (upMove + (loMove - upMove) * t) * fall;
      }
    }
    return [x + da * g.ex[0] + db * g.ey[0], y + da * g.ex[1] + db * g.ey[1]];
  };
}

/**
 * The edge of the warped region in a picture whose face has these points: the ellipse around the head where the
 * head's move has faded out (the mouth's and eyes' moves fade well inside it). For the report's seam check.
 */
export function warpRing(points: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const g = new FaceGeometry(points);
  const out: Array<[number, number]> = [];
  for (let j = 0; j <= 48; j++) {
    const t = (j / 48) * 2 * Math.PI;
    const hx = Math.cos(t) * 0.66 * g.L * 1.55;
    const hy = Math.sin(t) * 0.78 * g.L * 1.55 - 0.08 * g.L;
    out.push([g.centre[0] + hx * g.ex[0] + hy * g.ey[0], g.centre[1] + hx * g.ex[1] + hy * g.ey[1]]);
  }
  return out;
}

/** Point indices whose rest place is not a mesh point: the caller adds rings around the head. */
export function headRings(g: FaceGeometry): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const Rx = 0.66 * g.L;
  const Ry = 0.78 * g.L;
  for (const k of [1.08, 1.3, 1.55, 1.8]) {
    for (let j = 0; j < 28; j++) {
      const t = (j / 28) * 2 * Math.PI;
      const hx = Math.cos(t) * Rx * k;
      const hy = Math.sin(t) * Ry * k - 0.08 * g.L;
      out.push([g.centre[0] + hx * g.ex[0] + hy * g.ey[0], g.centre[1] + hx * g.ex[1] + hy * g.ey[1]]);
    }
  }
  // The jaw and neck under the chin, where the jaw's move fades.
  for (const bb of [0.12, 0.25, 0.4]) {
    for (const aa of [-2.2, -1.4, -0.7, 0, 0.7, 1.4, 2.2]) out.push(g.picture(aa * g.mw, g.chinB + bb * g.L));
  }
  // Cheeks beside the mouth.
  for (const bb of [-0.6, 0, 0.6]) for (const aa of [-2.6, -1.8, 1.8, 2.6]) out.push(g.picture(aa * g.mw, bb * g.mw));
  return out;
}

export const lipIndices = { INNER_LOWER, INNER_UPPER, INNER_CORNERS };
/** Each eye's upper and lower lid contours, corner to corner (mesh indices). */
export const eyeContours: ReadonlyArray<{ upper: readonly number[]; lower: readonly number[] }> = EYES;
export type { Point3 };
