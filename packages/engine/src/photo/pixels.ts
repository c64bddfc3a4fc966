import type { Point3 } from './landmarks.ts';

/** An RGB24 picture in memory. */
export interface Rgb {
  data: Uint8Array | Buffer;
  width: number;
  height: number;
}

export interface Lab {
  l: number;
  a: number;
  b: number;
}

const lin = (c: number): number => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};
const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);

/** lin() of every 8-bit value: the lightness of a pixel needs no power function. */
const LIN = Float64Array.from({ length: 256 }, (_, c) => lin(c));

/** CIELAB L* of an 8-bit sRGB pixel: the same value as `toLab(r, g, b).l`, at a fraction of its cost. */
export function lightness(r: number, g: number, b: number): number {
  return 116 * f(0.2126 * LIN[r]! + 0.7152 * LIN[g]! + 0.0722 * LIN[b]!) - 16;
}

/** sRGB to CIELAB (D65). */
export function toLab(r: number, g: number, b: number): Lab {
  const R = lin(r);
  const G = lin(g);
  const B = lin(b);
  const x = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
  const y = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
  const z = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
  return { l: 116 * y - 16, a: 500 * (x - y), b: 200 * (y - z) };
}

export const deltaE = (p: Lab, q: Lab): number => Math.hypot(p.l - q.l, p.a - q.a, p.b - q.b);

/** Even-odd test: is (x, y) inside the polygon? */
function inside(poly: readonly (readonly [number, number])[], x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

/** A polygon's points in 2-D and its bounding box clipped to the image (whole pixels, inclusive). */
function polygonInImage(img: Rgb, outer: readonly Point3[]) {
  const po = outer.map(([x, y]) => [x, y] as const);
  const xs = po.map((p) => p[0]);
  const ys = po.map((p) => p[1]);
  return {
    po,
    x0: Math.max(0, Math.floor(Math.min(...xs))),
    x1: Math.min(img.width - 1, Math.ceil(Math.max(...xs))),
    y0: Math.max(0, Math.floor(Math.min(...ys))),
    y1: Math.min(img.height - 1, Math.ceil(Math.max(...ys))),
  };
}

/** Mean Lab colour of the pixels inside `outer` and outside `hole` (polygons of mesh points); null if none. */
export function meanLabIn(img: Rgb, outer: readonly Point3[], hole: readonly Point3[] = []): Lab | null {
  const { po, x0, x1, y0, y1 } = polygonInImage(img, outer);
  const ph = hole.map(([x, y]) => [x, y] as const);
  return meanLabOf(
    img,
    { x0, x1, y0, y1 },
    (x, y) => inside(po, x + 0.5, y + 0.5) && !(ph.length > 2 && inside(ph, x + 0.5, y + 0.5)),
  );
}

/** Mean Lab colour of a disk. */
export function meanLabDisk(img: Rgb, cx: number, cy: number, radius: number): Lab | null {
  const rr = Math.max(1, radius);
  const box = {
    x0: Math.max(0, Math.floor(cx - rr)),
    x1: Math.min(img.width - 1, Math.ceil(cx + rr)),
    y0: Math.max(0, Math.floor(cy - rr)),
    y1: Math.min(img.height - 1, Math.ceil(cy + rr)),
  };
  return meanLabOf(img, box, (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= rr * rr);
}

/** Mean Lab colour of the pixels of `box` (inclusive) that `keep` takes; null if it takes none. */
function meanLabOf(
  img: Rgb,
  { x0, x1, y0, y1 }: { x0: number; x1: number; y0: number; y1: number },
  keep: (x: number, y: number) => boolean,
): Lab | null {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      if (!keep(x, y)) continue;
      const i = (y * img.width + x) * 3;
      r += img.data[i]!;
      g += img.data[i + 1]!;
      b += img.data[i + 2]!;
      n++;
    }
  return n ? toLab(r / n, g / n, b / n) : null;
}

/** Spread of lightness (90th minus 10th percentile of L) inside a polygon: detail versus a flat patch. */
export function lightnessSpreadIn(img: Rgb, outer: readonly Point3[]): number {
  const { po, x0, x1, y0, y1 } = polygonInImage(img, outer);
  const ls: number[] = [];
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      if (!inside(po, x + 0.5, y + 0.5)) continue;
      const i = (y * img.width + x) * 3;
      ls.push(lightness(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!));
    }
  if (ls.length < 4) return 0;
  ls.sort((a, b) => a - b);
  return ls[Math.floor(ls.length * 0.9)]! - ls[Math.floor(ls.length * 0.1)]!;
}
