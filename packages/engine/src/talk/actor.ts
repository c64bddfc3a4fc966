import sharp from 'sharp';
import type { PhotoFace } from '@hookreel/contracts';
import { delaunay, warpTriangles } from './mesh.ts';
import {
  eyeContours,
  FaceGeometry,
  headRings,
  lipIndices,
  lipMoves,
  moveFace,
  MOUTH_SHAPES,
  type FaceState,
  type PointClass,
} from './face.ts';

/**
 * A photo prepared for talking, once per actor: the photo framed to the video, its face points in that frame,
 * the mesh around the head, the crop that any state changes, and the mouth's colours from the photo's own light.
 */
export interface PreparedPhoto {
  width: number;
  height: number;
  /** The framed photo (RGBA, width x height), product included when one is placed on it. */
  rgba: Buffer;
  /** Where the state's changes can fall (even-aligned for the chroma planes). */
  crop: { x: number; y: number; w: number; h: number };
  /** The crop of the framed photo (RGBA). */
  cropRgba: Uint8Array;
  geometry: FaceGeometry;
  /** Control points at rest, crop coordinates. */
  rest: Float64Array;
  classes: PointClass[];
  tris: Int32Array;
  /** Product pixels over the crop (alpha 0 elsewhere): drawn again over each state so the warp never bends it. */
  productOver: Uint8Array | null;
  colours: MouthColours;
  /** Photo pixels per video pixel of the framing, and its crop of the photo (photo pixels). */
  framing: { left: number; top: number; scale: number };
  /** Per viseme, a real mouth still (same framing as the photo) used instead of warped lips. */
  stills: Map<string, Uint8Array>;
}

export interface MouthColours {
  teeth: [number, number, number];
  cavity: [number, number, number];
  tongue: [number, number, number];
  /** Whether the photo's own teeth show (then they are reused, moving with the lips). */
  photoTeeth: boolean;
  /** Light across the mouth: brightness at the picture-left corner over the right. */
  lightSlope: number;
}

/** Where the face sits in the framed video: the face's centre at this share of the width and height. */
const FACE_AT = { x: 0.5, y: 0.36 };

/**
 * The framing of a photo in a width x height video: scaled to cover, at least so the face is not smaller than a
 * quarter of the height, and placed so the face is centred across and in the upper third.
 */
export function photoFraming(
  face: PhotoFace,
  width: number,
  height: number,
): { left: number; top: number; scale: number } {
  const { width: pw, height: ph } = face.imageSize;
  const cover = Math.max(width / pw, height / ph);
  const scale = cover;
  const fcx = face.faceBox.x + face.faceBox.width / 2;
  const fcy = face.faceBox.y + face.faceBox.height / 2;
  const left = Math.max(0, Math.min(pw * scale - width, fcx * scale - FACE_AT.x * width));
  const top = Math.max(0, Math.min(ph * scale - height, fcy * scale - FACE_AT.y * height));
  return { left, top, scale };
}

/** The photo framed as the video shows it (RGBA). */
export async function framedPhoto(
  photo: string | Buffer,
  face: PhotoFace,
  width: number,
  height: number,
): Promise<Buffer> {
  const f = photoFraming(face, width, height);
  const sw = Math.round(face.imageSize.width * f.scale);
  const sh = Math.round(face.imageSize.height * f.scale);
  return sharp(photo)
    .rotate()
    .resize(sw, sh, { fit: 'fill', kernel: 'lanczos3' })
    .extract({ left: Math.round(f.left), top: Math.round(f.top), width, height })
    .ensureAlpha()
    .raw()
    .toBuffer();
}

export async function preparePhoto(input: {
  photo: string | Buffer;
  face: PhotoFace;
  width: number;
  height: number;
  /** The product drawn over the framed photo (RGBA, same size), or null. */
  productLayer?: Buffer | null;
  /** Real mouth stills by viseme, framed like the photo. */
  mouthStills?: ReadonlyMap<string, string | Buffer> | null;
}): Promise<PreparedPhoto> {
  const { width, height, face } = input;
  const framing = photoFraming(face, width, height);
  const base = await framedPhoto(input.photo, face, width, height);
  const toFrame = (p: readonly number[]): [number, number] => [
    p[0]! * framing.scale - Math.round(framing.left),
    p[1]! * framing.scale - Math.round(framing.top),
  ];
  const pts = face.points.map(toFrame);
  const geometry0 = new FaceGeometry(pts);
  const rings = headRings(geometry0);
  const all = [...pts, ...rings];
  // The crop: every point that can move, with a margin, inside the frame, even-aligned.
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (const [x, y] of all) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const even = (v: number) => 2 * Math.floor(v / 2);
  const cx0 = Math.max(0, even(x0 - 4));
  const cy0 = Math.max(0, even(y0 - 4));
  const cx1 = Math.min(width, even(x1 + 6));
  const cy1 = Math.min(height, even(y1 + 6));
  const crop = { x: cx0, y: cy0, w: cx1 - cx0, h: cy1 - cy0 };
  const local = all.map(([x, y]): [number, number] => [x - crop.x, y - crop.y]);
  // Fixed points along the crop's edge hold the warp to zero there.
  const edge: Array<[number, number]> = [];
  const steps = 8;
  for (let i = 0; i <= steps; i++) {
    const fx = (i / steps) * (crop.w - 1);
    const fy = (i / steps) * (crop.h - 1);
    edge.push([fx, 0], [fx, crop.h - 1], [0, fy], [crop.w - 1, fy]);
  }
  const inside = local.filter(([x, y]) => x > 0.5 && y > 0.5 && x < crop.w - 1.5 && y < crop.h - 1.5);
  const ctrl = [...local.slice(0, pts.length), ...inside.slice(0), ...edge];
  // Mesh points stay at their indices; the rings that fall inside and the edge follow.
  const used = [
    ...local.slice(0, pts.length),
    ...local.slice(pts.length).filter(([x, y]) => x > 0.5 && y > 0.5 && x < crop.w - 1.5 && y < crop.h - 1.5),
    ...edge,
  ];
  void ctrl;
  const rest = new Float64Array(used.length * 2);
  used.forEach(([x, y], i) => {
    rest[2 * i] = x;
    rest[2 * i + 1] = y;
  });
  const geometry = new FaceGeometry(local.slice(0, pts.length));
  const classes: PointClass[] = used.map((_, i) => geometry.classes.get(i) ?? 'other');
  // Edge points never move: mark them so the state mover leaves them (they are beyond every fall-off anyway).
  const tris = delaunay(rest);
  const cropRgba = cropOf(base, width, crop);
  let productOver: Uint8Array | null = null;
  let rgba = base;
  if (input.productLayer) {
    productOver = cropOf(input.productLayer, width, crop);
    rgba = await sharp(base, { raw: { width, height, channels: 4 } })
      .composite([{ input: input.productLayer, raw: { width, height, channels: 4 } }])
      .raw()
      .toBuffer();
  }
  const stills = new Map<string, Uint8Array>();
  for (const [viseme, still] of input.mouthStills ?? [])
    stills.set(viseme, cropOf(await framedPhoto(still, face, width, height), width, crop));
  return {
    width,
    height,
    rgba,
    crop,
    cropRgba,
    geometry,
    rest,
    classes,
    tris,
    productOver,
    colours: mouthColours(cropRgba, crop.w, geometry, face),
    framing,
    stills,
  };
}

function cropOf(rgba: Buffer, width: number, crop: { x: number; y: number; w: number; h: number }): Uint8Array {
  const out = new Uint8Array(crop.w * crop.h * 4);
  for (let y = 0; y < crop.h; y++) {
    const s = ((crop.y + y) * width + crop.x) * 4;
    out.set(rgba.subarray(s, s + crop.w * 4), y * crop.w * 4);
  }
  return out;
}

/** The mouth's colours from the photo: teeth from its own teeth or the whites of the eyes, cavity and tongue from the lips. */
function mouthColours(rgba: Uint8Array, w: number, g: FaceGeometry, face: PhotoFace): MouthColours {
  const at = (x: number, y: number): [number, number, number] => {
    const i = (Math.round(y) * w + Math.round(x)) * 4;
    return [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
  };
  const lum = (c: readonly number[]) => 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;
  const samples = (cx: number, cy: number, rx: number, ry: number) => {
    const out: Array<[number, number, number]> = [];
    for (let dy = -ry; dy <= ry; dy++) for (let dx = -rx; dx <= rx; dx++) out.push(at(cx + dx, cy + dy));
    return out;
  };
  const mean = (cs: Array<[number, number, number]>): [number, number, number] => {
    const s = cs.reduce((a, c) => [a[0] + c[0], a[1] + c[1], a[2] + c[2]], [0, 0, 0]);
    return [s[0] / cs.length, s[1] / cs.length, s[2] / cs.length];
  };
  const brightest = (cs: Array<[number, number, number]>, share: number) =>
    mean([...cs].sort((a, b) => lum(b) - lum(a)).slice(0, Math.max(1, Math.round(cs.length * share))));
  const p = (i: number) => g.points[i]!;
  const lipUp = p(0);
  const lipLow = p(17);
  const lips = mean([
    ...samples((lipUp[0] + p(13)[0]) / 2, (lipUp[1] + p(13)[1]) / 2, 2, 1),
    ...samples((lipLow[0] + p(14)[0]) / 2, (lipLow[1] + p(14)[1]) / 2, 2, 1),
  ]);
  const photoTeeth = face.mouthOpen > 0.08;
  let teeth: [number, number, number];
  if (photoTeeth) {
    const t = p(13);
    const b = p(14);
    teeth = brightest(
      samples((t[0] + b[0]) / 2, (t[1] + b[1]) / 2, Math.round(g.mw * 0.4), Math.max(1, Math.round((b[1] - t[1]) / 3))),
      0.4,
    );
  } else {
    // Teeth are a little darker and warmer than the whites of the eyes under the same light.
    const sclera = brightest(
      [
        ...samples(p(33)[0] * 0.7 + p(133)[0] * 0.3, p(33)[1] * 0.7 + p(133)[1] * 0.3, 2, 1),
        ...samples(p(263)[0] * 0.7 + p(362)[0] * 0.3, p(263)[1] * 0.7 + p(362)[1] * 0.3, 2, 1),
      ],
      0.5,
    );
    teeth = [sclera[0] * 0.86 + lips[0] * 0.06, sclera[1] * 0.84 + lips[1] * 0.04, sclera[2] * 0.8 + lips[2] * 0.03];
  }
  const cl = mean(samples(p(50)[0], p(50)[1], 2, 2));
  const cr = mean(samples(p(280)[0], p(280)[1], 2, 2));
  return {
    teeth,
    cavity: [lips[0] * 0.42, lips[1] * 0.22, lips[2] * 0.21],
    tongue: [lips[0] * 0.8, lips[1] * 0.52, lips[2] * 0.55],
    photoTeeth,
    lightSlope: Math.max(0.7, Math.min(1.4, lum(cl) / Math.max(1, lum(cr)))),
  };
}

/** The crop of one state (RGBA): the warped face with its mouth inside, product over it. */
export function drawState(p: PreparedPhoto, s: FaceState): Uint8Array {
  const { w, h } = p.crop;
  const still = p.stills.get(s.mouth) ?? null;
  const source = still && s.amount >= 0.99 ? still : p.cropRgba;
  const state = still && source === still ? { ...s, mouth: 'rest' as const, amount: 0 } : s;
  const to = moveFace(p.geometry, p.rest, p.classes, state);
  // Edge points are the last ones: pin them exactly.
  const out = new Uint8Array(source);
  warpTriangles(source, out, w, h, p.tris, p.rest, to);
  if (MOUTH_SHAPES[state.mouth].open * state.amount > 0 || p.colours.photoTeeth) paintMouth(p, state, to, out);
  const close = s.eyes === 'closed' ? 1 : s.eyes === 'half' ? 0.5 : 0;
  if (close > 0) paintLids(out, w, h, to, close);
  if (p.productOver) {
    const po = p.productOver;
    for (let i = 0; i < po.length; i += 4) {
      const a = po[i + 3]!;
      if (a === 0) continue;
      const k = a / 255;
      out[i] = out[i]! * (1 - k) + po[i]! * k;
      out[i + 1] = out[i + 1]! * (1 - k) + po[i + 1]! * k;
      out[i + 2] = out[i + 2]! * (1 - k) + po[i + 2]! * k;
    }
  }
  return out;
}

/** Piecewise-linear y(x) through points sorted by x. */
function curve(pts: Array<[number, number]>): (x: number) => number {
  pts.sort((a, b) => a[0] - b[0]);
  return (x) => {
    if (x <= pts[0]![0]) return pts[0]![1];
    for (let i = 1; i < pts.length; i++) {
      if (x <= pts[i]![0]) {
        const [x0, y0] = pts[i - 1]!;
        const [x1, y1] = pts[i]!;
        return y0 + ((y1 - y0) * (x - x0)) / Math.max(1e-9, x1 - x0);
      }
    }
    return pts[pts.length - 1]![1];
  };
}

/**
 * The inside of the mouth where the lips have parted: the photo's own teeth moved with their lip when it shows
 * them, else teeth shaded from the photo's light; a dark cavity and the tongue between, darker to the corners.
 */
function paintMouth(p: PreparedPhoto, s: FaceState, to: Float64Array, out: Uint8Array): void {
  const { w } = p.crop;
  const { INNER_LOWER, INNER_UPPER, INNER_CORNERS } = lipIndices;
  const pt = (arr: Float64Array, i: number): [number, number] => [arr[2 * i]!, arr[2 * i + 1]!];
  const corners = INNER_CORNERS.map((i) => pt(to, i));
  const upper = curve([...INNER_UPPER.map((i) => pt(to, i)), ...corners]);
  const lower = curve([...INNER_LOWER.map((i) => pt(to, i)), ...corners]);
  const srcCorners = INNER_CORNERS.map((i) => pt(p.rest, i));
  const srcUpper = curve([...INNER_UPPER.map((i) => pt(p.rest, i)), ...srcCorners]);
  const srcLower = curve([...INNER_LOWER.map((i) => pt(p.rest, i)), ...srcCorners]);
  const xa = Math.min(corners[0]![0], corners[1]![0]);
  const xb = Math.max(corners[0]![0], corners[1]![0]);
  const sxa = Math.min(srcCorners[0]![0], srcCorners[1]![0]);
  const sxb = Math.max(srcCorners[0]![0], srcCorners[1]![0]);
  const c = p.colours;
  const g = p.geometry;
  const W = 2 * g.mw;
  const m = MOUTH_SHAPES[s.mouth];
  const lips = lipMoves(g, m, s.amount);
  void lips;
  const src = p.cropRgba;
  const teethH = 0.16 * W;
  const lowTeethH = 0.09 * W * Math.max(0, 1 - m.tuck * s.amount);
  for (let x = Math.floor(xa); x <= Math.ceil(xb); x++) {
    const yu = upper(x);
    const yl = lower(x);
    if (yl - yu <= 0.05) continue;
    const t = (x - xa) / Math.max(1, xb - xa);
    const across = Math.abs(t - 0.5) * 2;
    // Light: the photo's slope across the mouth, and less light reaching the corners.
    const light = (1 + (c.lightSlope - 1) * (0.5 - t)) * (1 - 0.55 * across ** 2);
    const sx = sxa + t * (sxb - sxa);
    const sgap = Math.max(0, srcLower(sx) - srcUpper(sx));
    for (let y = Math.floor(yu); y <= Math.ceil(yl); y++) {
      const du = y - yu;
      const dl = yl - y;
      const cover = Math.min(1, Math.max(0, du + 0.5), Math.max(0, dl + 0.5));
      if (cover <= 0) continue;
      const gap = yl - yu;
      // Cavity, lighter near the lips; the tongue fills the floor of the mouth; teeth hang from their lips.
      const depth = Math.min(1, Math.min(du, dl) / Math.max(1, gap / 2));
      const kc = light * (1 - 0.45 * depth);
      let col: [number, number, number] = [c.cavity[0] * kc, c.cavity[1] * kc, c.cavity[2] * kc];
      const tongueTop = yl - gap * (0.3 + 0.25 * m.tongue) * s.amount;
      if (y > tongueTop && across < 0.8) {
        const kt = light * (0.62 + 0.38 * Math.min(1, (y - tongueTop) / Math.max(1, gap * 0.25))) * (1 - 0.3 * across);
        col = mix(col, [c.tongue[0] * kt, c.tongue[1] * kt, c.tongue[2] * kt], Math.min(1, (y - tongueTop) / 1.5));
      }
      const upperBand = c.photoTeeth ? sgap * 0.6 : teethH * (1 - 0.5 * across);
      const lowerBand = c.photoTeeth ? sgap * 0.28 : gap > 0.12 * W ? lowTeethH * (1 - 0.6 * across) : 0;
      if (du < upperBand + 1) {
        const teeth: [number, number, number] = c.photoTeeth
          ? sample(src, w, sx, srcUpper(sx) + du)
          : ((k: number) => [c.teeth[0] * k, c.teeth[1] * k, c.teeth[2] * k] as [number, number, number])(
              light * (0.78 + 0.22 * Math.min(1, du / 2.5)) * (1 - 0.08 * toothGap(t)),
            );
        col = mix(col, teeth, Math.min(1, upperBand + 1 - du));
      } else if (dl < lowerBand + 1) {
        const teeth: [number, number, number] = c.photoTeeth
          ? sample(src, w, sx, srcLower(sx) - dl)
          : [c.teeth[0] * light * 0.7, c.teeth[1] * light * 0.7, c.teeth[2] * light * 0.7];
        col = mix(col, teeth, Math.min(1, lowerBand + 1 - dl));
      }
      // Parted less than in the photo: its own opening, squeezed between the lips.
      if (c.photoTeeth && gap <= sgap * 1.1) col = sample(src, w, sx, srcUpper(sx) + (du / gap) * sgap);
      const [r, gg, b] = col;
      const o = (y * w + x) * 4;
      out[o] = out[o]! * (1 - cover) + r * cover;
      out[o + 1] = out[o + 1]! * (1 - cover) + gg * cover;
      out[o + 2] = out[o + 2]! * (1 - cover) + b * cover;
    }
  }
}

const mix = (a: readonly number[], b: readonly number[], k: number): [number, number, number] => [
  a[0]! + (b[0]! - a[0]!) * k,
  a[1]! + (b[1]! - a[1]!) * k,
  a[2]! + (b[2]! - a[2]!) * k,
];

/** Darkening between incisors across the mouth (0–1), t from corner to corner. */
function toothGap(t: number): number {
  const u = Math.abs(t - 0.5);
  const edges = [0, 0.09, 0.17, 0.24];
  return Math.max(...edges.map((e) => Math.max(0, 1 - Math.abs(u - e) * 90)));
}

function sample(src: Uint8Array, w: number, x: number, y: number): [number, number, number] {
  const ix = Math.max(0, Math.floor(x));
  const iy = Math.max(0, Math.floor(y));
  const fx = x - ix;
  const fy = y - iy;
  const i = (iy * w + ix) * 4;
  const j = i + w * 4;
  const f = (k: number) =>
    src[i + k]! * (1 - fx) * (1 - fy) +
    src[i + 4 + k]! * fx * (1 - fy) +
    src[j + k]! * (1 - fx) * fy +
    src[j + 4 + k]! * fx * fy;
  return [f(0), f(1), f(2)];
}

/**
 * Upper lids lowered over the eyes (a blink): skin shaded between the photo's own skin above and below each eye,
 * down to `close` of the opening (past the lower lid when closed, hiding the white the mesh's contour leaves), with
 * the lashes as a soft dark line at the lid's edge and a faint shadow under it. Feathered at every edge, so it
 * melts into the face; the eye behind is covered, not squashed.
 */
function paintLids(out: Uint8Array, w: number, h: number, to: Float64Array, close: number): void {
  const pt = (i: number): [number, number] => [to[2 * i]!, to[2 * i + 1]!];
  const px = (x: number, y: number, k: number) =>
    out[(Math.max(0, Math.min(h - 1, Math.round(y))) * w + Math.max(0, Math.min(w - 1, Math.round(x)))) * 4 + k]!;
  for (const eye of eyeContours) {
    const up = curve(eye.upper.map(pt));
    const low = curve(eye.lower.map(pt));
    const xs = eye.upper.map((i) => pt(i)[0]);
    const xa = Math.min(...xs);
    const xb = Math.max(...xs);
    const span = Math.max(1, xb - xa);
    let gapMax = 1;
    for (let x = xa; x <= xb; x++) gapMax = Math.max(gapMax, low(x) - up(x));
    // The lid's skin fades in from well above the eye (where its colour is read) to just below the lash line.
    const mTop = 0.75 * gapMax + 1;
    // Past the corners too: the lashes fan out beyond the contour's ends, darkest at the outer corner.
    const x0 = Math.floor(xa - 0.3 * span);
    const x1 = Math.ceil(xb + 0.3 * span);
    // Skin above (clear of the lashes) and below each column, averaged over a few columns: the lid's colours.
    const colour = (x: number, y: (x: number) => number): [number, number, number] => {
      const c: [number, number, number] = [0, 0, 0];
      let n = 0;
      for (let dx = -3; dx <= 3; dx++)
        for (let dy = 0; dy < 2; dy++) {
          for (let k = 0; k < 3; k++) c[k] = c[k]! + px(x + dx, y(x + dx) + dy, k);
          n++;
        }
      return [c[0] / n, c[1] / n, c[2] / n];
    };
    // The lashes: the darkest of the photo's lid line.
    const margin: number[][] = [];
    for (let x = Math.round(xa + 0.2 * span); x <= xb - 0.2 * span; x++)
      for (let dy = -2; dy <= 1; dy++) margin.push([0, 1, 2].map((k) => px(x, up(x) + dy, k)));
    margin.sort((a, b) => a[0]! + a[1]! + a[2]! - (b[0]! + b[1]! + b[2]!));
    const dark = margin.slice(0, Math.max(1, Math.round(margin.length * 0.1)));
    const lash = [0, 1, 2].map((k) => dark.reduce((a, c) => a + c[k]!, 0) / dark.length);
    for (let x = x0; x <= x1; x++) {
      if (x < 0 || x >= w) continue;
      // Inside the eye's width, full; fading out past its corners.
      const across = Math.min(x - xa, xb - x) / span;
      const side = Math.min(1, Math.max(0, (across + 0.3) / 0.2));
      const u = up(Math.min(xb, Math.max(xa, x)));
      const l = low(Math.min(xb, Math.max(xa, x)));
      const gap = Math.max(0, l - u);
      const top = colour(x, (q) => up(Math.min(xb, Math.max(xa, q))) - mTop - 1);
      const bottom = colour(x, (q) => low(Math.min(xb, Math.max(xa, q))) + 0.5 * gapMax + 1);
      const edge = u + close * gap + (close >= 1 ? 0.12 * gapMax + 0.5 : 0);
      const yTop = u - mTop;
      const yEnd = edge + 2.5;
      // Lashes thin out towards the corners.
      const lashK = 0.65 * Math.sin(Math.PI * Math.min(1, Math.max(0, (x - xa) / span))) ** 0.6;
      for (let y = Math.floor(yTop); y <= Math.ceil(yEnd); y++) {
        if (y < 0 || y >= h) continue;
        // Opaque well above the photo's upper lash line (the lashes stand above the lid's contour).
        const r = Math.min(1, Math.max(0, (y - yTop) / Math.max(1, u - 0.3 * gapMax - 1 - yTop)));
        const fadeIn = r * r * (3 - 2 * r);
        // Below the lid's edge only its shadow and the lashes' softness reach.
        const lid = y <= edge ? 1 : Math.max(0, 1 - (y - edge) / 1.2);
        // The lid's skin is the skin above it; the lower lid's colour only shows near its edge.
        const t = 0.5 * Math.min(1, Math.max(0, 1 - (edge - y) / Math.max(1, 0.5 * gapMax)));
        // The lid is a dome: a little darker towards its edge and its corners.
        const shade =
          (1 - 0.06 * Math.min(1, Math.max(0, 1 - (edge - y) / Math.max(1, 0.6 * gapMax)))) * (1 - 0.06 * (1 - side));
        let c = mix(top, bottom, t).map((v) => v * shade) as [number, number, number];
        const d = y - edge;
        const lashA = lashK * Math.exp(-(((d + 0.2) / 1.1) ** 2));
        c = mix(c, lash, lashA);
        const o = (y * w + x) * 4;
        const base: [number, number, number] = [out[o]!, out[o + 1]!, out[o + 2]!];
        // Below the edge: the lashes over the shadow the lowered lid casts on what is still open.
        const under = y > edge ? mix(base, [base[0] * 0.75, base[1] * 0.75, base[2] * 0.75], lashK * lid) : base;
        const col = y > edge ? mix(under, lash, side * lashA) : mix(under, c, side * Math.max(fadeIn, lashA));
        out[o] = col[0];
        out[o + 1] = col[1];
        out[o + 2] = col[2];
      }
    }
  }
}
