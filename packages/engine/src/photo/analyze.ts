import sharp from 'sharp';
import { FACE_MESSAGES, type FaceRefusal, type PhotoFace } from '@hookreel/contracts';
import { detectImage, type RawFace, type RawImage } from './face-worker.ts';
import { MESH, boxOf, eyesOpenness, mouthOpenness, type Box, type Point3 } from './landmarks.ts';
import { lightnessSpreadIn, meanLabDisk, meanLabIn, type Rgb } from './pixels.ts';

export type PortraitAnalysis =
  { ok: true; face: PhotoFace } | { ok: false; reason: FaceRefusal; message: string; detail: string };

/**
 * Limits of a photo that can be animated well (decision 190). Measured on the astronaut portrait and the
 * fixtures derived from it (photo/fixtures.ts); the figures are in the decision.
 */
export const PORTRAIT_LIMITS = {
  /** Forehead-to-chin height in pixels: below it the mouth is too few pixels to reshape cleanly. */
  minFaceHeight: 200,
  /** Head turned (yaw) or nodded (pitch) past this, the far side of the mouth is hidden or foreshortened. */
  maxTurnDeg: 25,
  /** Head tilted in the picture's plane past this: mouth shapes are drawn about the face's own axis up to here. */
  maxTiltDeg: 30,
  /** Another face counts when its detector box is at least this share of the main face's (a poster far back does not). */
  otherFaceShare: 0.35,
  minScore: 0.5,
  /** An eye is closed when its lid gap is under this share of its width... */
  eyeClosedOpenness: 0.12,
  /** ...or when the eye's inside is flat (no white, no iris): lightness spread (P90-P10 of L*) under this. */
  eyeFlatSpread: 20,
  /**
   * A mouth is covered when the lips' area is flat: spread of L* under this (lips with their seam measure ~30-43,
   * a hand or microphone drawn over them ~0). Lip colour is not used: a warm light made the lips no redder than
   * the cheeks on the 'dim' fixture.
   */
  mouthFlatSpread: 15,
} as const;

const LEFT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const RIGHT_EYE = [362, 382, 381, 380, 374, 373, 390, 249, 263, 466, 388, 387, 386, 385, 384, 398];

const deg = (rad: number): number => (rad * 180) / Math.PI;
const r1 = (v: number): number => Math.round(v * 10) / 10;
const r3 = (v: number): number => Math.round(v * 1000) / 1000;
const roundBox = (b: Box): Box => ({ x: r1(b.x), y: r1(b.y), width: r1(b.width), height: r1(b.height) });

/** Forehead-to-chin distance (holds under in-plane tilt, unlike a bounding box). */
export function faceLength(points: readonly Point3[]): number {
  const a = points[MESH.foreheadTop]!;
  const b = points[MESH.chin]!;
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** Pixel measures of one face that the refusals use (exported for the tests and the decision's figures). */
export function facePixelMeasures(img: Rgb, face: RawFace) {
  const m = face.mesh;
  const pts = (ix: readonly number[]) => ix.map((i) => m[i]!);
  const r = Math.max(2, 0.03 * face.box[3]);
  const cheeks = MESH.cheeks.map((i) => meanLabDisk(img, m[i]![0], m[i]![1], r)).filter((c) => c !== null);
  const lips = meanLabIn(img, pts(MESH.lipsOuter), pts(MESH.lipsInner));
  const cheekA = cheeks.length ? cheeks.reduce((s, c) => s + c.a, 0) / cheeks.length : 0;
  return {
    eyeSpread: { left: lightnessSpreadIn(img, pts(LEFT_EYE)), right: lightnessSpreadIn(img, pts(RIGHT_EYE)) },
    mouthSpread: lightnessSpreadIn(img, pts(MESH.lipsOuter)),
    lipRedness: lips ? lips.a - cheekA : 0,
  };
}

const refuse = (reason: FaceRefusal, detail: string): PortraitAnalysis => ({
  ok: false,
  reason,
  message: FACE_MESSAGES[reason],
  detail,
});

/** Judges a detection of a photo (pure: the model's output and the photo's pixels in, a verdict out). */
export function judgePortrait(raw: RawImage, img: Rgb): PortraitAnalysis {
  const L = PORTRAIT_LIMITS;
  const faces = raw.faces.filter((f) => f.score >= L.minScore && f.mesh.length === 478);
  if (faces.length === 0) return refuse('no-face', 'no face detected');
  faces.sort((a, b) => b.box[3] - a.box[3]);
  const main = faces[0]!;
  const others = faces.slice(1).filter((f) => f.box[3] >= L.otherFaceShare * main.box[3]);
  if (others.length > 0) return refuse('many-faces', `${others.length + 1} faces detected`);
  const points = main.mesh;
  const height = faceLength(points);
  if (height < L.minFaceHeight) return refuse('too-small', `face ${Math.round(height)} px tall`);
  const angle = main.angle ?? { yaw: 0, pitch: 0, roll: 0 };
  const pose = { yaw: deg(angle.yaw), pitch: deg(angle.pitch), roll: deg(angle.roll) };
  if (Math.abs(pose.yaw) > L.maxTurnDeg || Math.abs(pose.pitch) > L.maxTurnDeg || Math.abs(pose.roll) > L.maxTiltDeg)
    return refuse('turned', `yaw ${r1(pose.yaw)}°, pitch ${r1(pose.pitch)}°, roll ${r1(pose.roll)}°`);
  const eyes = eyesOpenness(points);
  const px = facePixelMeasures(img, main);
  const closed = (open: number, spread: number) => open < L.eyeClosedOpenness || spread < L.eyeFlatSpread;
  if (closed(eyes.left, px.eyeSpread.left) && closed(eyes.right, px.eyeSpread.right))
    return refuse(
      'eyes-closed',
      `openness ${r3(eyes.left)}/${r3(eyes.right)}, spread ${r1(px.eyeSpread.left)}/${r1(px.eyeSpread.right)}`,
    );
  if (px.mouthSpread < L.mouthFlatSpread)
    return refuse('mouth-covered', `lip spread ${r1(px.mouthSpread)}, redness ${r1(px.lipRedness)}`);
  if (!main.descriptor || main.descriptor.length !== 1024) throw new Error('face descriptor missing');
  return {
    ok: true,
    face: {
      version: 1,
      imageSize: { width: raw.width, height: raw.height },
      points: points.map(([x, y, z]) => [r1(x), r1(y), r1(z)] as [number, number, number]),
      box: roundBox({ x: main.box[0], y: main.box[1], width: main.box[2], height: main.box[3] }),
      faceBox: roundBox(boxOf(points, MESH.faceOval)),
      mouthBox: roundBox(boxOf(points, MESH.lipsOuter)),
      pose: { yaw: r1(pose.yaw), pitch: r1(pose.pitch), roll: r1(pose.roll) },
      eyesOpen: { left: r3(eyes.left), right: r3(eyes.right) },
      mouthOpen: r3(mouthOpenness(points)),
      descriptor: main.descriptor,
    },
  };
}

/**
 * Finds the face in a portrait photo once and says whether it can be animated. The detector runs in its own
 * process (face-worker.ts); EXIF orientation is applied, so points are in the upright picture's pixels.
 */
export async function analyzePortrait(
  imagePath: string,
  opts: { signal?: AbortSignal } = {},
): Promise<PortraitAnalysis> {
  const raw = await detectImage(imagePath, opts);
  const { data, info } = await sharp(imagePath).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return judgePortrait(raw, { data, width: info.width, height: info.height });
}

/** Cosine similarity of two face descriptors (1 for the same picture; decision 191 has measured figures). */
export function descriptorSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
