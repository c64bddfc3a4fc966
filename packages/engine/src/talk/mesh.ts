/**
 * Piecewise-affine warp: control points triangulated once (Delaunay, on their rest positions); a state moves the
 * points and each triangle's pixels are mapped from the rest picture by the affine map of its corners. Only
 * triangles whose corners move are redrawn, into a copy of the rest picture, so a still region costs nothing.
 */

/** Delaunay triangles (Bowyer–Watson) of points given as [x0, y0, x1, y1, ...]; indices in threes. */
export function delaunay(xy: Float64Array): Int32Array {
  const n = xy.length / 2;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, xy[2 * i]!);
    maxX = Math.max(maxX, xy[2 * i]!);
    minY = Math.min(minY, xy[2 * i + 1]!);
    maxY = Math.max(maxY, xy[2 * i + 1]!);
  }
  const d = Math.max(maxX - minX, maxY - minY) * 20;
  const mx = (minX + maxX) / 2;
  const my = (minY + maxY) / 2;
  // Points plus the three corners of a super-triangle around them.
  const px = [...Array.from({ length: n }, (_, i) => xy[2 * i]!), mx - d, mx, mx + d];
  const py = [...Array.from({ length: n }, (_, i) => xy[2 * i + 1]!), my - d, my + d, my - d];
  interface Tri {
    a: number;
    b: number;
    c: number;
    cx: number;
    cy: number;
    r2: number;
  }
  const make = (a: number, b: number, c: number): Tri => {
    const ax = px[a]!;
    const ay = py[a]!;
    const bx = px[b]!;
    const by = py[b]!;
    const cx = px[c]!;
    const cy = py[c]!;
    const dd = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    const ux =
      ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / dd;
    const uy =
      ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / dd;
    return { a, b, c, cx: ux, cy: uy, r2: (ax - ux) ** 2 + (ay - uy) ** 2 };
  };
  let tris: Tri[] = [make(n, n + 1, n + 2)];
  for (let i = 0; i < n; i++) {
    const x = px[i]!;
    const y = py[i]!;
    const bad: Tri[] = [];
    const keep: Tri[] = [];
    for (const t of tris) ((x - t.cx) ** 2 + (y - t.cy) ** 2 < t.r2 * (1 + 1e-12) ? bad : keep).push(t);
    // The hole's boundary: edges of bad triangles not shared by another bad triangle.
    const edges = new Map<string, [number, number]>();
    for (const t of bad) {
      for (const [u, v] of [
        [t.a, t.b],
        [t.b, t.c],
        [t.c, t.a],
      ] as const) {
        const k = u < v ? `${u},${v}` : `${v},${u}`;
        if (edges.has(k)) edges.delete(k);
        else edges.set(k, [u, v]);
      }
    }
    for (const [u, v] of edges.values()) keep.push(make(u, v, i));
    tris = keep;
  }
  const out: number[] = [];
  for (const t of tris) if (t.a < n && t.b < n && t.c < n) out.push(t.a, t.b, t.c);
  return Int32Array.from(out);
}

/**
 * Warps `src` (RGBA, w x h) into `dst` (a copy of src on entry) by moving the control points from `from` to `to`
 * (both [x, y, ...] in pixel-centre coordinates of the picture): each triangle moved by more than a hundredth of
 * a pixel is redrawn with bilinear samples of the rest picture.
 */
export function warpTriangles(
  src: Uint8Array,
  dst: Uint8Array,
  w: number,
  h: number,
  tris: Int32Array,
  from: Float64Array,
  to: Float64Array,
): void {
  for (let t = 0; t < tris.length; t += 3) {
    const i0 = tris[t]! * 2;
    const i1 = tris[t + 1]! * 2;
    const i2 = tris[t + 2]! * 2;
    const moved =
      Math.abs(to[i0]! - from[i0]!) +
      Math.abs(to[i0 + 1]! - from[i0 + 1]!) +
      Math.abs(to[i1]! - from[i1]!) +
      Math.abs(to[i1 + 1]! - from[i1 + 1]!) +
      Math.abs(to[i2]! - from[i2]!) +
      Math.abs(to[i2 + 1]! - from[i2 + 1]!);
    if (moved < 0.01) continue;
    const x0 = to[i0]!;
    const y0 = to[i0 + 1]!;
    const x1 = to[i1]!;
    const y1 = to[i1 + 1]!;
    const x2 = to[i2]!;
    const y2 = to[i2 + 1]!;
    const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (Math.abs(det) < 1e-6) continue;
    // Barycentric weights of a destination pixel give its source position.
    const u0 = from[i0]!;
    const v0 = from[i0 + 1]!;
    const du1 = from[i1]! - u0;
    const dv1 = from[i1 + 1]! - v0;
    const du2 = from[i2]! - u0;
    const dv2 = from[i2 + 1]! - v0;
    const bx = Math.max(0, Math.floor(Math.min(x0, x1, x2)));
    const ex = Math.min(w - 1, Math.ceil(Math.max(x0, x1, x2)));
    const by = Math.max(0, Math.floor(Math.min(y0, y1, y2)));
    const ey = Math.min(h - 1, Math.ceil(Math.max(y0, y1, y2)));
    const inv = 1 / det;
    const eps = -1e-4;
    for (let y = by; y <= ey; y++) {
      const ry = y - y0;
      for (let x = bx; x <= ex; x++) {
        const rx = x - x0;
        const l1 = (rx * (y2 - y0) - ry * (x2 - x0)) * inv;
        const l2 = (ry * (x1 - x0) - rx * (y1 - y0)) * inv;
        if (l1 < eps || l2 < eps || l1 + l2 > 1 - eps) continue;
        let sx = u0 + l1 * du1 + l2 * du2;
        let sy = v0 + l1 * dv1 + l2 * dv2;
        sx = sx < 0 ? 0 : sx > w - 1.001 ? w - 1.001 : sx;
        sy = sy < 0 ? 0 : sy > h - 1.001 ? h - 1.001 : sy;
        const ix = sx | 0;
        const iy = sy | 0;
        const fx = sx - ix;
        const fy = sy - iy;
        const p = (iy * w + ix) * 4;
        const q = p + w * 4;
        const o = (y * w + x) * 4;
        const w00 = (1 - fx) * (1 - fy);
        const w10 = fx * (1 - fy);
        const w01 = (1 - fx) * fy;
        const w11 = fx * fy;
        dst[o] = src[p]! * w00 + src[p + 4]! * w10 + src[q]! * w01 + src[q + 4]! * w11 + 0.5;
        dst[o + 1] = src[p + 1]! * w00 + src[p + 5]! * w10 + src[q + 1]! * w01 + src[q + 5]! * w11 + 0.5;
        dst[o + 2] = src[p + 2]! * w00 + src[p + 6]! * w10 + src[q + 2]! * w01 + src[q + 6]! * w11 + 0.5;
      }
    }
  }
}
