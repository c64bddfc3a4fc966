import { BOUNDS_EDITOR, FRAME, type SavedBounds } from '@hookreel/contracts';

/**
 * Avatar bounds geometry in the 576x1024 frame. A box is its unrotated top-left (x, y), width, height and a
 * rotation in degrees (clockwise) about its centre. Pure functions: no DOM, no canvas.
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}
export interface Point {
  x: number;
  y: number;
}

export const RESIZE_HANDLES = ['nw', 'ne', 'se', 'sw', 'n', 'e', 's', 'w'] as const;
export type ResizeHandle = (typeof RESIZE_HANDLES)[number];
export type Hit = { kind: 'rotate' } | { kind: 'resize'; handle: ResizeHandle } | { kind: 'move' } | null;

const rad = (deg: number) => (deg * Math.PI) / 180;

export const center = (b: Box): Point => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** A point given in the box's local (unrotated, centre-origin) coordinates, in frame coordinates. */
export function toFrame(b: Box, local: Point): Point {
  const c = center(b);
  const r = rad(b.rotation);
  return {
    x: c.x + local.x * Math.cos(r) - local.y * Math.sin(r),
    y: c.y + local.x * Math.sin(r) + local.y * Math.cos(r),
  };
}

/** A frame point in the box's local (unrotated, centre-origin) coordinates. */
export function toLocal(b: Box, p: Point): Point {
  const c = center(b);
  const r = rad(-b.rotation);
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  return { x: dx * Math.cos(r) - dy * Math.sin(r), y: dx * Math.sin(r) + dy * Math.cos(r) };
}

/** The four rotated corners in order top-left, top-right, bottom-right, bottom-left. */
export function corners(b: Box): [Point, Point, Point, Point] {
  const w = b.width / 2;
  const h = b.height / 2;
  return [
    toFrame(b, { x: -w, y: -h }),
    toFrame(b, { x: w, y: -h }),
    toFrame(b, { x: w, y: h }),
    toFrame(b, { x: -w, y: h }),
  ];
}

const HANDLE_LOCAL: Record<ResizeHandle, (w: number, h: number) => Point> = {
  nw: (w, h) => ({ x: -w, y: -h }),
  ne: (w, h) => ({ x: w, y: -h }),
  se: (w, h) => ({ x: w, y: h }),
  sw: (w, h) => ({ x: -w, y: h }),
  n: (_w, h) => ({ x: 0, y: -h }),
  e: (w) => ({ x: w, y: 0 }),
  s: (_w, h) => ({ x: 0, y: h }),
  w: (w) => ({ x: -w, y: 0 }),
};

export function handlePoint(b: Box, handle: ResizeHandle): Point {
  return toFrame(b, HANDLE_LOCAL[handle](b.width / 2, b.height / 2));
}

/** The rotation handle: BOUNDS_EDITOR.rotationHandleOffset above the middle of the top edge (rotating with the box). */
export function rotationHandlePoint(b: Box): Point {
  return toFrame(b, { x: 0, y: -b.height / 2 - BOUNDS_EDITOR.rotationHandleOffset });
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** What a press at `p` grabs: the rotation handle first, then a resize handle, then the box body. */
export function hitTest(b: Box, p: Point): Hit {
  if (dist(p, rotationHandlePoint(b)) <= BOUNDS_EDITOR.rotationHandleHitRadius) return { kind: 'rotate' };
  for (const handle of RESIZE_HANDLES) {
    if (dist(p, handlePoint(b, handle)) <= BOUNDS_EDITOR.handleHitRadius) return { kind: 'resize', handle };
  }
  const l = toLocal(b, p);
  if (Math.abs(l.x) <= b.width / 2 && Math.abs(l.y) <= b.height / 2) return { kind: 'move' };
  return null;
}

export const moveBox = (b: Box, dx: number, dy: number): Box => ({ ...b, x: b.x + dx, y: b.y + dy });

/**
 * Resizes `b` by dragging `handle` to frame point `p`, keeping the opposite side fixed and the rotation.
 * Returns `b` unchanged unless both resulting width and height stay above BOUNDS_EDITOR.minBox.
 */
export function resizeBox(b: Box, handle: ResizeHandle, p: Point): Box {
  const l = toLocal(b, p);
  let left = -b.width / 2;
  let right = b.width / 2;
  let top = -b.height / 2;
  let bottom = b.height / 2;
  if (handle.includes('w')) left = l.x;
  if (handle.includes('e')) right = l.x;
  if (handle.includes('n')) top = l.y;
  if (handle.includes('s')) bottom = l.y;
  const width = right - left;
  const height = bottom - top;
  if (!(width > BOUNDS_EDITOR.minBox && height > BOUNDS_EDITOR.minBox)) return b;
  const c = toFrame(b, { x: (left + right) / 2, y: (top + bottom) / 2 });
  return { x: c.x - width / 2, y: c.y - height / 2, width, height, rotation: b.rotation };
}

/** Normalises degrees to (-180, 180]. */
export function normaliseDegrees(deg: number): number {
  let d = deg % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return Object.is(d, -0) ? 0 : d;
}

/** Rotation that points the top handle at frame point `p` (0° when `p` is straight above the centre). */
export function rotateTowards(b: Box, p: Point): Box {
  const c = center(b);
  const deg = (Math.atan2(p.y - c.y, p.x - c.x) * 180) / Math.PI + 90;
  return { ...b, rotation: normaliseDegrees(deg) };
}

/** The box saved for an avatar, or a centred default when it has none (nulls). */
export function boxFromAvatar(a: {
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  rotation: number;
}): Box {
  if (a.x !== null && a.y !== null && a.width && a.height) {
    return { x: a.x, y: a.y, width: a.width, height: a.height, rotation: a.rotation ?? 0 };
  }
  const width = 200;
  const height = 200;
  return { x: (FRAME.width - width) / 2, y: (FRAME.height - height) / 2, width, height, rotation: 0 };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The PUT /avatars/{id}/bounds payload: rounded integers plus the rotated corners TL, TR, BR, BL. */
export function toSavedBounds(b: Box): SavedBounds {
  const r: Box = {
    x: Math.round(b.x),
    y: Math.round(b.y),
    width: Math.max(1, Math.round(b.width)),
    height: Math.max(1, Math.round(b.height)),
    rotation: Math.round(normaliseDegrees(b.rotation)),
  };
  const [tl, tr, br, bl] = corners(r);
  return {
    ...r,
    x1: round2(tl.x),
    y1: round2(tl.y),
    x2: round2(tr.x),
    y2: round2(tr.y),
    x3: round2(br.x),
    y3: round2(br.y),
    x4: round2(bl.x),
    y4: round2(bl.y),
  };
}
