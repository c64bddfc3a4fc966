import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { PhotoFace } from '@hookreel/contracts';
import type { RigBoxes } from '../actors/rig.ts';
import { framingView, type FramedDrawer } from '../motion/film.ts';
import {
  drawAFewAtOnce,
  prepareProduct,
  rigCacheDir,
  y4mFrame,
  y4mHeader,
  type ProductPlacement,
} from '../motion/frames.ts';
import { beatsOf, cameraFilter, cameraShots, type CameraShot } from '../motion/timeline.ts';
import type { WordTiming } from '../types.ts';
import { FRAME_WIDTH, VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';
import { writeFileAtomic } from '../util/files.ts';
import { drawState, preparePhoto, type PreparedPhoto } from './actor.ts';
import { faceStateKey, type FaceState } from './face.ts';
import { photoTimeline } from './timeline.ts';

export { photoTimeline, photoVisemesOfWord, soundsOf, nodTimes, voiceLoudness, MOUTH_LEAD_SEC } from './timeline.ts';
export { drawState, preparePhoto, photoFraming, framedPhoto, type PreparedPhoto } from './actor.ts';
export { PHOTO_VISEMES, MOUTH_SHAPES, faceStateKey, type FaceState, type PhotoViseme } from './face.ts';

/** Bump when the drawing changes, so cached state frames are redrawn. */
const PHOTO_VERSION = 'photo-v3';

/** Real mouth stills of an actor by mouth shape (photos framed like the actor's photo): used when present. */
export type MouthStills = Partial<Record<string, string>>;

export interface TalkingPhoto {
  segments: Array<{ path: string; durationSec: number; state: FaceState }>;
  camera: string;
  shots: CameraShot[];
  /** The closed-mouth, eyes-open frame (PNG): poster and still. */
  posterSourcePath: string;
  /** Frame coordinates (576x1024), over every state the video uses. */
  boxes: RigBoxes;
  drawFramed: FramedDrawer;
  /** Time spent preparing the actor in this call (0 when another render had prepared it). */
  prepSec: number;
  statesDrawn: number;
}

interface Prepared {
  photo: PreparedPhoto;
  baseY4m: Buffer;
  dir: string;
  /** Drawn crops by state key (stateCrop). */
  crops: Map<string, Uint8Array>;
  /** SHA-256 of the photo's bytes (hex): the default seed of its blinks. */
  photoHash: string;
}

/** Prepared actors by key: a pack's renders share one (bounded; a long-running worker keeps the latest). */
const preparedMemo = new Map<string, Promise<Prepared>>();
const PREPARED_MAX = 3;
let drawn = 0;
/** State frames this process has drawn (bench and tests read it). */
export const photoStatesDrawn = (): number => drawn;

const K = VIDEO_WIDTH / FRAME_WIDTH;

/** The product's picture over the framed photo (RGBA at video size) and its box in frame coordinates. */
async function productLayer(cutoutPath: string, placement: ProductPlacement) {
  const p = await prepareProduct(cutoutPath, placement);
  const w = Math.max(1, Math.round(p.held.width * K));
  const h = Math.max(1, Math.round(p.held.height * K));
  const rotated = await sharp(p.png)
    .resize(w, h, { fit: 'fill' })
    .rotate(p.held.rotation, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const left = Math.round(p.held.cx * K - rotated.info.width / 2);
  const top = Math.round(p.held.cy * K - rotated.info.height / 2);
  const layer = await sharp({
    create: { width: VIDEO_WIDTH, height: VIDEO_HEIGHT, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: rotated.data, left, top }])
    .raw()
    .toBuffer();
  const box = {
    x: Math.max(0, left / K),
    y: Math.max(0, top / K),
    w: rotated.info.width / K,
    h: rotated.info.height / K,
  };
  return { layer, box, key: p.key };
}

/** The single-frame Y4M of a state: the rest frame's planes with the crop's pixels converted in. */
function stateY4m(prep: Prepared, crop: Uint8Array): Buffer {
  const { width, height, crop: c } = prep.photo;
  const out = Buffer.from(prep.baseY4m);
  const yOff = y4mHeader(width, height).length;
  const uOff = yOff + width * height;
  const vOff = uOff + (width >> 1) * (height >> 1);
  const cw = width >> 1;
  const stride = c.w * 4;
  // Two rows of the crop at a time: four luma samples and one averaged chroma pair per 2x2 block (BT.601, video
  // range, as y4mFrame converts the rest frame).
  for (let y = 0; y < c.h; y += 2) {
    const row0 = yOff + (c.y + y) * width + c.x;
    const row1 = row0 + width;
    const crow = ((c.y + y) >> 1) * cw + (c.x >> 1);
    for (let x = 0; x < c.w; x += 2) {
      const i = y * stride + x * 4;
      const j = i + stride;
      const r0 = crop[i]!;
      const g0 = crop[i + 1]!;
      const b0 = crop[i + 2]!;
      const r1 = crop[i + 4]!;
      const g1 = crop[i + 5]!;
      const b1 = crop[i + 6]!;
      const r2 = crop[j]!;
      const g2 = crop[j + 1]!;
      const b2 = crop[j + 2]!;
      const r3 = crop[j + 4]!;
      const g3 = crop[j + 5]!;
      const b3 = crop[j + 6]!;
      out[row0 + x] = ((66 * r0 + 129 * g0 + 25 * b0 + 128) >> 8) + 16;
      out[row0 + x + 1] = ((66 * r1 + 129 * g1 + 25 * b1 + 128) >> 8) + 16;
      out[row1 + x] = ((66 * r2 + 129 * g2 + 25 * b2 + 128) >> 8) + 16;
      out[row1 + x + 1] = ((66 * r3 + 129 * g3 + 25 * b3 + 128) >> 8) + 16;
      const r = (r0 + r1 + r2 + r3 + 2) >> 2;
      const g = (g0 + g1 + g2 + g3 + 2) >> 2;
      const b = (b0 + b1 + b2 + b3 + 2) >> 2;
      const co = crow + (x >> 1);
      out[uOff + co] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
      out[vOff + co] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
    }
  }
  return out;
}

/** States' drawn crops kept for the closer framings, which draw the same few states again and again. */
const CROPS_KEPT = 8;

/** A state's drawn crop, kept (a few, the latest used) with the prepared actor. */
function stateCrop(prep: Prepared, s: FaceState): Uint8Array {
  const key = faceStateKey(s);
  const kept = prep.crops.get(key);
  if (kept) {
    prep.crops.delete(key);
    prep.crops.set(key, kept);
    return kept;
  }
  const crop = drawState(prep.photo, s);
  if (prep.crops.size >= CROPS_KEPT) prep.crops.delete(prep.crops.keys().next().value!);
  prep.crops.set(key, crop);
  return crop;
}

/** A state as a full RGBA frame (for pictures and closer framings). */
function stateRgba(prep: Prepared, s: FaceState): Buffer {
  const { width, crop: c } = prep.photo;
  const out = Buffer.from(prep.photo.rgba);
  const cropPx = stateCrop(prep, s);
  for (let y = 0; y < c.h; y++) out.set(cropPx.subarray(y * c.w * 4, (y + 1) * c.w * 4), ((c.y + y) * width + c.x) * 4);
  return out;
}

/** Prepares an actor once (face mesh, crop, colours; kept for the renders that follow): a bench times it apart. */
export async function preparePhotoActor(input: {
  photoPath: string;
  face: PhotoFace;
  product: { cutoutPath: string; placement: ProductPlacement } | null;
  mouthStills?: MouthStills | null;
}): Promise<{ prep: Prepared; productBox: RigBoxes['product']; prepSec: number }> {
  const started = performance.now();
  const photoBytes = await readFile(input.photoPath);
  const product = input.product ? await productLayer(input.product.cutoutPath, input.product.placement) : null;
  const stills = Object.entries(input.mouthStills ?? {}).filter((e): e is [string, string] => !!e[1]);
  const hash = createHash('sha256').update(PHOTO_VERSION).update(photoBytes).update(JSON.stringify(input.face.points));
  hash.update(product?.key ?? '-');
  for (const [v, p] of stills) hash.update(v).update(await readFile(p));
  const key = hash.digest('hex').slice(0, 24);
  const photoHash = createHash('sha256').update(photoBytes).digest('hex');
  let pending = preparedMemo.get(key);
  const fresh = !pending;
  if (!pending) {
    if (preparedMemo.size >= PREPARED_MAX) preparedMemo.delete(preparedMemo.keys().next().value!);
    pending = (async () => {
      const photo = await preparePhoto({
        photo: photoBytes,
        face: input.face,
        width: VIDEO_WIDTH,
        height: VIDEO_HEIGHT,
        productLayer: product?.layer ?? null,
        mouthStills: new Map(stills),
      });
      const dir = path.join(rigCacheDir(), `photo-${key}`);
      await mkdir(dir, { recursive: true });
      return { photo, baseY4m: y4mFrame(photo.rgba, VIDEO_WIDTH, VIDEO_HEIGHT), dir, crops: new Map(), photoHash };
    })();
    pending.catch(() => preparedMemo.delete(key));
    preparedMemo.set(key, pending);
  }
  const prep = await pending;
  const now = new Date();
  await utimes(prep.dir, now, now).catch(() => undefined);
  return { prep, productBox: product?.box ?? null, prepSec: fresh ? (performance.now() - started) / 1000 : 0 };
}

const inFlight = new Map<string, Promise<void>>();

/**
 * A talking photo: its performance from the words, each distinct state drawn once per actor (cached on disk, shared
 * by concurrent renders), the boxes the layout keeps text off, and the same camera as the illustrated actor's.
 */
export async function photoActor(input: {
  photoPath: string;
  face: PhotoFace;
  product: { cutoutPath: string; placement: ProductPlacement } | null;
  words: readonly WordTiming[];
  totalSec: number;
  hookText?: string | null;
  /**
   * Seeds the blinks and eye movements; by default the photo's own bytes (their SHA-256), so the same photo
   * blinks the same way wherever it is stored.
   */
  seed?: string | null;
  mouthStills?: MouthStills | null;
  /** The voice's loudness (`voiceLoudness`), so the mouth opens with the voice; phones alone without it. */
  loudness?: readonly number[] | null;
}): Promise<TalkingPhoto> {
  const { prep, productBox, prepSec } = await preparePhotoActor(input);
  const timeline = photoTimeline({
    words: input.words,
    totalSec: input.totalSec,
    seed: input.seed ?? prep.photoHash,
    loudness: input.loudness ?? null,
  });
  const rest: FaceState = { mouth: 'rest', amount: 1, eyes: 'open', head: { tilt: 0, down: 0 } };
  const files = new Map<string, { state: FaceState; file: string }>();
  for (const s of [rest, ...timeline.map((t) => t.state)]) {
    const k = faceStateKey(s);
    if (!files.has(k)) files.set(k, { state: s, file: path.join(prep.dir, `${k}.y4m`) });
  }
  const before = drawn;
  await drawAFewAtOnce([...files.values()], async ({ state, file }) => {
    let p = inFlight.get(file);
    if (!p) {
      p = stat(file)
        .then(
          () => undefined,
          async () => {
            drawn++;
            await writeFileAtomic(file, stateY4m(prep, drawState(prep.photo, state)));
          },
        )
        .finally(() => inFlight.delete(file));
      inFlight.set(file, p);
    }
    await p;
  });
  const poster = path.join(prep.dir, 'rest.png');
  try {
    await stat(poster);
  } catch {
    const raw = { width: VIDEO_WIDTH, height: VIDEO_HEIGHT, channels: 4 as const };
    await writeFileAtomic(poster, await sharp(stateRgba(prep, rest), { raw }).png({ compressionLevel: 1 }).toBuffer());
  }
  const boxes = photoBoxes(prep.photo, productBox);
  const beats = beatsOf(input.words, input.hookText);
  const face = { cx: boxes.face.x + boxes.face.w / 2, cy: boxes.face.y + boxes.face.h / 2 };
  const shots = cameraShots({ totalSec: input.totalSec, beats, face, product: productBox, faceBox: boxes.face });
  const stateOfFile = new Map([...files.values()].map((f) => [f.file, f.state]));
  const drawFramed: FramedDrawer = async (source, framing) => {
    const state = stateOfFile.get(source);
    if (!state) throw new Error(`no photo state drawn as ${source}`);
    const view = framingView(framing, VIDEO_WIDTH, VIDEO_HEIGHT);
    const raw = { width: VIDEO_WIDTH, height: VIDEO_HEIGHT, channels: 4 as const };
    const { data, info } = await sharp(stateRgba(prep, state), { raw })
      .resize(framing.sw, framing.sh, { kernel: 'lanczos3' })
      .extract({ left: framing.x, top: framing.y, width: VIDEO_WIDTH, height: VIDEO_HEIGHT })
      .raw()
      .toBuffer({ resolveWithObject: true });
    void view;
    return y4mFrame(data, info.width, info.height);
  };
  return {
    segments: timeline.map((t) => ({
      path: files.get(faceStateKey(t.state))!.file,
      durationSec: t.durationSec,
      state: t.state,
    })),
    camera: cameraFilter(shots, VIDEO_WIDTH, VIDEO_HEIGHT),
    shots,
    posterSourcePath: poster,
    boxes,
    drawFramed,
    prepSec,
    statesDrawn: drawn - before,
  };
}

/** Face (head with hair), mouth (every shape), body and product in frame coordinates. */
function photoBoxes(p: PreparedPhoto, product: RigBoxes['product']): RigBoxes {
  const g = p.geometry;
  const toFrame = (x: number, y: number) => [(x + p.crop.x) / K, (y + p.crop.y) / K] as const;
  const box = (pts: Array<readonly [number, number]>) => {
    const xs = pts.map((q) => q[0]);
    const ys = pts.map((q) => q[1]);
    const x = Math.max(0, Math.min(...xs));
    const y = Math.max(0, Math.min(...ys));
    return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
  };
  const around = (a: number, b: number) => toFrame(...g.picture(a, b));
  // The head with hair: the mesh's oval grown, as the head rings lie.
  const head: Array<readonly [number, number]> = [];
  for (let j = 0; j < 24; j++) {
    const t = (j / 24) * 2 * Math.PI;
    const hx = Math.cos(t) * 0.62 * g.L;
    const hy = Math.sin(t) * 0.72 * g.L - 0.08 * g.L;
    head.push(toFrame(g.centre[0] + hx * g.ex[0] + hy * g.ey[0], g.centre[1] + hx * g.ex[1] + hy * g.ey[1]));
  }
  const face = box(head);
  const mouth = box([
    around(-1.5 * g.mw, -0.8 * g.mw),
    around(1.5 * g.mw, -0.8 * g.mw),
    around(-1.5 * g.mw, 1.6 * g.mw),
    around(1.5 * g.mw, 1.6 * g.mw),
  ]);
  const chin = toFrame(...g.picture(0, g.chinB));
  const bodyW = (2.4 * g.L) / K;
  const body = { x: Math.max(0, chin[0] - bodyW / 2), y: chin[1], w: Math.min(FRAME_WIDTH, bodyW), h: 1024 - chin[1] };
  return { face, mouth, body, hand: product ?? { x: body.x, y: 1024, w: 0, h: 0 }, product };
}
