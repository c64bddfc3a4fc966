/**
 * Named points of the 478-point face mesh (the MediaPipe face-mesh topology: 468 surface points, then 5 points
 * for each iris). "Left" and "right" are the picture's, not the person's.
 */
export type Point3 = [number, number, number];

export const MESH = {
  /** Top of the forehead and bottom of the chin: the face's height. */
  foreheadTop: 10,
  chin: 152,
  /** Outer lip contour, clockwise from the picture-left corner. */
  lipsOuter: [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185],
  /** Inner lip contour (the mouth opening). */
  lipsInner: [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 415, 310, 311, 312, 13, 82, 81, 80, 191],
  mouthCorners: [61, 291] as const,
  /** Middle of the upper and lower inner lip. */
  innerLipTop: 13,
  innerLipBottom: 14,
  /** Eye corners and two lid pairs (upper, lower) for each eye. */
  leftEye: {
    corners: [33, 133] as const,
    lids: [
      [159, 145],
      [158, 153],
    ] as const,
  },
  rightEye: {
    corners: [362, 263] as const,
    lids: [
      [386, 374],
      [385, 380],
    ] as const,
  },
  /** Face outline, forehead to chin and back. */
  faceOval: [
    10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150,
    136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
  ],
  /** Middle of each cheek: skin colour to compare the lips with. */
  cheeks: [50, 280] as const,
  irisCentres: [468, 473] as const,
} as const;

export const MESH_POINTS = 478;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const at = (points: readonly Point3[], i: number): Point3 => {
  const p = points[i];
  if (!p) throw new Error(`face mesh has no point ${i}`);
  return p;
};
const dist = (points: readonly Point3[], a: number, b: number): number => {
  const p = at(points, a);
  const q = at(points, b);
  return Math.hypot(p[0] - q[0], p[1] - q[1]);
};

/** Bounding box of some mesh points, grown by `pad` of its size on each side. */
export function boxOf(points: readonly Point3[], indices?: readonly number[], pad = 0): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const i of indices ?? points.keys()) {
    const [x, y] = at(points, i);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const w = x1 - x0;
  const h = y1 - y0;
  return { x: x0 - w * pad, y: y0 - h * pad, width: w * (1 + 2 * pad), height: h * (1 + 2 * pad) };
}

/** Lid gap over eye width for one eye (two lid pairs averaged): ~0.25–0.4 open, under ~0.12 closed. */
function eyeOpenness(points: readonly Point3[], eye: (typeof MESH)['leftEye'] | (typeof MESH)['rightEye']): number {
  const width = dist(points, eye.corners[0], eye.corners[1]);
  const gap = eye.lids.reduce((s, [u, l]) => s + dist(points, u, l), 0) / eye.lids.length;
  return width > 0 ? gap / width : 0;
}

export function eyesOpenness(points: readonly Point3[]): { left: number; right: number } {
  return { left: eyeOpenness(points, MESH.leftEye), right: eyeOpenness(points, MESH.rightEye) };
}

/** Inner-lip gap over mouth width: 0 closed, ~0.1 speaking, ~0.3+ wide open. */
export function mouthOpenness(points: readonly Point3[]): number {
  const width = dist(points, MESH.mouthCorners[0], MESH.mouthCorners[1]);
  return width > 0 ? dist(points, MESH.innerLipTop, MESH.innerLipBottom) / width : 0;
}

/** Forehead-to-chin height of the face in pixels (the mesh's own extent, without hair). */
export function faceHeight(points: readonly Point3[]): number {
  return boxOf(points, MESH.faceOval).height;
}
