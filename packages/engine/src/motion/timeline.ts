import { createHash } from 'node:crypto';
import type { RigPose, Viseme } from '../actors/rig.ts';
import type { WordTiming } from '../types.ts';

/**
 * Performance timeline of a talking actor: which rig pose is on screen when. Mouth shapes come from the words'
 * letters spread over each word's time span (the voices give word timings, not phonemes); blinks, breathing,
 * head sway and the product gesture are layered on top. The result is a short list of segments that the
 * renderer plays from pre-rendered frames, so nothing is rasterised per video frame.
 */

export interface PoseSegment {
  pose: RigPose;
  startSec: number;
  durationSec: number;
}

/** Grapheme groups → mouth shape; consonants that barely show on the lips keep the previous shape. */
const UNITS: Array<[RegExp, Viseme | null]> = [
  [/^(oo|ou|ow|oa|oi|oy|o|u|w|q)/, 'round'],
  [/^(ee|ea|ie|ei|ay|ai|e|i|y)/, 'wide'],
  [/^(au|aw|a)/, 'open'],
  [/^(th|sh|ch|ph|f|v|s|z|j|t|d|c|x)/, 'teeth'],
  [/^(mm|bb|pp|m|b|p)/, 'closed'],
  [/^(ng|ck|gh|k|g|n|l|r|h)/, null],
];

/** Mouth shapes of a word in order (at least one open shape for any spoken word). */
export function visemesOfWord(word: string): Viseme[] {
  let w = word
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]/g, '');
  const out: Viseme[] = [];
  while (w.length > 0) {
    let matched = false;
    for (const [re, v] of UNITS) {
      const m = re.exec(w);
      if (!m) continue;
      if (v && out[out.length - 1] !== v) out.push(v);
      w = w.slice(m[0].length);
      matched = true;
      break;
    }
    if (!matched) w = w.slice(1);
  }
  // Numbers, symbols or scripts without Latin letters: the jaw still moves.
  if (!out.some((v) => v !== 'closed')) return ['open', 'wide'];
  return out;
}

/** Shortest time a mouth shape is held (two video frames at 30 fps): faster changes are merged. */
const MIN_SHAPE_SEC = 0.067;

export interface MouthSegment {
  viseme: Viseme;
  startSec: number;
  endSec: number;
}

/** Mouth shapes over time: each word's shapes share its span; the mouth is closed between words. */
export function mouthShapes(words: readonly WordTiming[], totalSec: number): MouthSegment[] {
  const out: MouthSegment[] = [];
  const push = (viseme: Viseme, startSec: number, endSec: number) => {
    if (endSec - startSec <= 0.001) return;
    const last = out[out.length - 1];
    if (last && (last.viseme === viseme || endSec - startSec < MIN_SHAPE_SEC) && last.endSec >= startSec - 0.001) {
      last.endSec = endSec;
      return;
    }
    out.push({ viseme, startSec, endSec });
  };
  let t = 0;
  for (const w of words) {
    const start = Math.max(t, Math.min(w.startSec, totalSec));
    const end = Math.max(start, Math.min(w.endSec, totalSec));
    push('closed', t, start);
    const shapes = visemesOfWord(w.word);
    // Hold each shape at least MIN_SHAPE_SEC: a long word on a short span keeps only the shapes that fit.
    const n = Math.max(1, Math.min(shapes.length, Math.floor((end - start) / MIN_SHAPE_SEC)));
    const step = (end - start) / n;
    for (let i = 0; i < n; i++) {
      const shape = shapes[Math.floor((i * shapes.length) / n)]!;
      push(shape, start + i * step, start + (i + 1) * step);
    }
    t = end;
  }
  push('closed', t, totalSec);
  return out;
}

/** Blink start times: every 2–6 s (seeded), never in the first half second. */
export function blinkTimes(seed: string, totalSec: number): number[] {
  const h = createHash('sha256').update(`${seed}/blinks`).digest();
  const out: number[] = [];
  let t = 0.6 + (h[0]! / 255) * 1.6;
  let i = 1;
  while (t < totalSec - 0.2) {
    out.push(t);
    t += 2 + (h[i++ % h.length]! / 255) * 4;
  }
  return out;
}
export const BLINK_SEC = 0.13;

/** Idle cycle: (head tilt°, chest rise px) per step; one breath and one sway over 8 steps of IDLE_STEP_SEC. */
const IDLE: ReadonlyArray<[number, number]> = [
  [0, 0],
  [0.8, 1],
  [1.5, 2],
  [0.8, 3],
  [0, 3],
  [-0.8, 2],
  [-1.5, 1],
  [-0.8, 0],
];
export const IDLE_STEP_SEC = 0.55;

export interface Beats {
  /** The hook's last word: the punch-in cut and the product lift happen here. */
  hookLastWord: { startSec: number; endSec: number } | null;
  /** The call to action (the last sentence), for the product close-up. */
  cta: { startSec: number; endSec: number } | null;
}

/**
 * The moments the motion is built around. The hook is `hookText` when it is spoken at the start, else the first
 * sentence; the CTA is the last sentence when there is more than one.
 */
export function beatsOf(words: readonly WordTiming[], hookText?: string | null): Beats {
  if (words.length === 0) return { hookLastWord: null, cta: null };
  const ends = words.map((w, i) => (/[.!?…]["”’)]?$/.test(w.word) ? i : -1)).filter((i) => i >= 0);
  let hookEnd = ends[0] ?? words.length - 1;
  if (hookText) {
    const n = hookText.trim().split(/\s+/).filter(Boolean).length;
    if (n > 0) hookEnd = Math.min(words.length - 1, n - 1);
  }
  const hookLast = words[hookEnd]!;
  let cta: Beats['cta'] = null;
  const lastStart = ends.length >= 2 ? ends[ends.length - 2]! + 1 : -1;
  if (lastStart > hookEnd && lastStart < words.length) {
    cta = { startSec: words[lastStart]!.startSec, endSec: words[words.length - 1]!.endSec };
  }
  return { hookLastWord: { startSec: hookLast.startSec, endSec: hookLast.endSec }, cta };
}

/** How long the product stays lifted after the hook's last word starts. */
const LIFT_HOLD_SEC = 1.4;

/**
 * The pose segments of a whole video: mouth shapes × blinks × idle sway/breath × the lift gesture, cut at every
 * change and merged where nothing changes.
 */
export function poseTimeline(input: {
  words: readonly WordTiming[];
  totalSec: number;
  seed: string;
  beats: Beats;
  /** Lift gesture only when there is something to lift. */
  gesture: boolean;
}): PoseSegment[] {
  const { totalSec } = input;
  const cuts = new Set<number>([0, totalSec]);
  const mouths = mouthShapes(input.words, totalSec);
  for (const m of mouths) cuts.add(m.startSec).add(m.endSec);
  const blinks = blinkTimes(input.seed, totalSec);
  for (const b of blinks) cuts.add(b).add(Math.min(totalSec, b + BLINK_SEC));
  for (let t = IDLE_STEP_SEC; t < totalSec; t += IDLE_STEP_SEC) cuts.add(t);
  const lift = input.gesture && input.beats.hookLastWord ? input.beats.hookLastWord.startSec - 0.15 : null;
  // The product comes down on the cut to the CTA close-up, which frames it where the resting hand holds it: still
  // lifted there, its top would leave the picture (the cut hides the move).
  const cta = input.beats.cta?.startSec;
  const liftEnd =
    lift === null ? null : Math.min(lift + LIFT_HOLD_SEC, cta !== undefined && cta > lift ? cta : Infinity);
  if (lift !== null && liftEnd !== null) cuts.add(Math.max(0, lift)).add(Math.min(totalSec, liftEnd));
  const times = [...cuts].filter((t) => t >= 0 && t <= totalSec).sort((a, b) => a - b);

  const out: PoseSegment[] = [];
  let mi = 0;
  for (let i = 0; i + 1 < times.length; i++) {
    const a = times[i]!;
    const b = times[i + 1]!;
    if (b - a < 0.0005) continue;
    const mid = (a + b) / 2;
    while (mi < mouths.length - 1 && mouths[mi]!.endSec <= mid) mi++;
    const idle = IDLE[Math.floor(mid / IDLE_STEP_SEC) % IDLE.length]!;
    const pose: RigPose = {
      viseme: mouths[mi]?.viseme ?? 'closed',
      blink: blinks.some((t) => mid >= t && mid < t + BLINK_SEC),
      tilt: idle[0],
      breath: idle[1],
      lift: lift !== null && liftEnd !== null && mid >= lift && mid < liftEnd,
    };
    const last = out[out.length - 1];
    if (last && poseKey(last.pose) === poseKey(pose)) last.durationSec += b - a;
    else out.push({ pose, startSec: a, durationSec: b - a });
  }
  return out;
}

export const poseKey = (p: RigPose) => `${p.viseme}-${p.blink ? 1 : 0}-${p.tilt}-${p.breath}-${p.lift ? 1 : 0}`;

/** Zoom keyframes of the virtual camera: 1 = the full frame. */
export interface CameraShot {
  startSec: number;
  endSec: number;
  /** Zoom at the shot's start and end (linear in between). */
  zoomFrom: number;
  zoomTo: number;
  /** Point kept at the frame's centre (frame coordinates, 576x1024). */
  cx: number;
  cy: number;
}

/** Largest zoom of the gentle push-in during the hook. */
export const PUSH_IN_ZOOM = 1.05;
/** Zoom of the punch-in cut on the hook's last word. */
export const PUNCH_IN_ZOOM = 1.18;
/** Share of the frame's height the product fills in the CTA close-up. */
const CLOSE_UP_FILL = 0.45;
/**
 * Zoom limits of the close-up: at least a clear cut from the punch-in, at most what the 720x1280 pose frames
 * stand being enlarged before the illustration goes visibly soft.
 */
const CLOSE_UP_MIN_ZOOM = 1.6;
const CLOSE_UP_MAX_ZOOM = 2.2;

/** Zoom of the CTA close-up for a product box (frame coordinates, 576x1024). */
export function closeUpZoom(product: { w: number; h: number }): number {
  const fill = Math.min((CLOSE_UP_FILL * 1024) / Math.max(1, product.h), (0.8 * 576) / Math.max(1, product.w));
  return Math.min(CLOSE_UP_MAX_ZOOM, Math.max(CLOSE_UP_MIN_ZOOM, fill));
}

/** Frame px kept between the chin and the top edge of a close-up framed below the face. */
const CHIN_MARGIN = 10;

/**
 * Where the CTA close-up centres vertically (frame coordinates). Centred on the product, the crop's top edge
 * often runs through the face (nose, mouth, half an eye): an amputated face is the one framing an editor never
 * leaves in. When the product hangs below the chin, the crop moves down to start just under the chin instead,
 * keeping the whole product; when it cannot (a product held up by the face), it stays centred on the product.
 */
export function closeUpCentreY(
  product: { x: number; y: number; w: number; h: number },
  zoom: number,
  faceBox: { x: number; y: number; w: number; h: number } | undefined,
): number {
  const cy = product.y + product.h / 2;
  if (!faceBox) return cy;
  const halfH = 512 / zoom;
  const halfW = 288 / zoom;
  // The crop as the camera clamps it inside the picture.
  const left = Math.max(0, Math.min(576 - 2 * halfW, product.x + product.w / 2 - halfW));
  const top = Math.max(0, Math.min(1024 - 2 * halfH, cy - halfH));
  const chin = faceBox.y + faceBox.h;
  const facing = left < faceBox.x + faceBox.w && left + 2 * halfW > faceBox.x;
  if (!facing || top >= chin || top + 2 * halfH <= faceBox.y) return cy;
  const below = Math.min(chin + CHIN_MARGIN, 1024 - 2 * halfH);
  const holds = below >= chin && below <= product.y && below + 2 * halfH >= product.y + product.h;
  return holds ? below + halfH : cy;
}

/**
 * The camera: a gentle push-in during the hook, a punch-in cut on the hook's last word (held a beat), a cut back
 * to the whole frame, and a close-up on the product for the CTA: centred on the product's box and zoomed until the
 * product fills CLOSE_UP_FILL of the picture's height (within the zoom limits). Apart from the push-in, shots
 * are cuts, not moves, as an editor would make them — and a still camera is what keeps the encode cheap.
 */
export function cameraShots(input: {
  totalSec: number;
  beats: Beats;
  face: { cx: number; cy: number };
  /** Where the product is held during the CTA (frame coordinates), or null without a product. */
  product: { x: number; y: number; w: number; h: number } | null;
  /** The face with its hair over every pose (frame coordinates): the close-up does not cut through it. */
  faceBox?: { x: number; y: number; w: number; h: number };
}): CameraShot[] {
  const { totalSec, beats, face } = input;
  const pushEnd = Math.max(0.5, beats.hookLastWord?.startSec ?? Math.min(3, totalSec));
  const push = (t: number) => 1 + (PUSH_IN_ZOOM - 1) * Math.min(1, t / pushEnd);
  // The wide shot frames a little above centre, where the face is.
  const wideY = 512 + (face.cy - 512) * 0.25;
  const shots: CameraShot[] = [];
  const cutPoints: Array<{ at: number; until: number; zoom: number; cx: number; cy: number }> = [];
  if (beats.hookLastWord) {
    const at = beats.hookLastWord.startSec;
    cutPoints.push({
      at,
      until: Math.min(totalSec, beats.hookLastWord.endSec + 0.7),
      zoom: PUNCH_IN_ZOOM,
      cx: 288,
      cy: face.cy + 80,
    });
  }
  if (beats.cta && input.product) {
    const p = input.product;
    const zoom = closeUpZoom(p);
    cutPoints.push({
      at: beats.cta.startSec,
      until: totalSec,
      zoom,
      cx: p.x + p.w / 2,
      cy: closeUpCentreY(p, zoom, input.faceBox),
    });
  }
  cutPoints.sort((a, b) => a.at - b.at);
  // Until the first cut the camera pushes in; after a cut it comes back to the whole frame (zoom 1, held), as an
  // editor punches in and out: a frame shown as drawn needs no framing of its own (decision 165).
  const between = (from: number, to: number): CameraShot =>
    from === 0
      ? { startSec: from, endSec: to, zoomFrom: push(from), zoomTo: push(to), cx: 288, cy: wideY }
      : { startSec: from, endSec: to, zoomFrom: 1, zoomTo: 1, cx: 288, cy: 512 };
  let t = 0;
  for (const c of cutPoints) {
    if (c.at > t) shots.push(between(t, c.at));
    const from = Math.max(t, c.at);
    if (c.until > from)
      shots.push({ startSec: from, endSec: c.until, zoomFrom: c.zoom, zoomTo: c.zoom, cx: c.cx, cy: c.cy });
    t = Math.max(t, c.until);
  }
  if (t < totalSec) shots.push(between(t, totalSec));
  return shots;
}

/**
 * The camera as an ffmpeg filter chain on a W x H stream: per-frame scale by the zoom, then a crop that keeps
 * the shot's point centred (clamped inside the picture). Expressions are evaluated per frame, cheaply.
 */
export function cameraFilter(shots: readonly CameraShot[], width: number, height: number, frameWidth = 576): string {
  const k = width / frameWidth;
  const piece = (get: (s: CameraShot) => string) =>
    shots.reduceRight((acc, s) => `if(lt(t,${s.endSec.toFixed(3)}),${get(s)},${acc})`, get(shots[shots.length - 1]!));
  const zoom = piece((s) => {
    const d = Math.max(0.001, s.endSec - s.startSec);
    return `(${s.zoomFrom.toFixed(4)}+${((s.zoomTo - s.zoomFrom) / d).toFixed(5)}*(t-${s.startSec.toFixed(3)}))`;
  });
  const cx = piece((s) => (s.cx * k).toFixed(1));
  const cy = piece((s) => (s.cy * k).toFixed(1));
  const z = `max(1,${zoom})`;
  const maxZoom = Math.max(1, ...shots.map((s) => Math.max(s.zoomFrom, s.zoomTo)));
  const sw = `2*trunc(${width}*${z}/2)`;
  const sh = `2*trunc(${height}*${z}/2)`;
  // The scaled size changes every frame, but a filter link has one size, set when the graph is configured
  // (t is NaN then): configure it at the largest zoom so the crop after it accepts every offset, and keep each
  // offset inside the actual frame ourselves. fast_bilinear: a quarter less CPU than bilinear, and at the
  // push-in's zoom (≤ 1.05) its frames are within 50 dB PSNR of a lanczos scale, far finer than the encode keeps.
  const scale = `scale=w='if(isnan(t),${2 * Math.ceil((width * maxZoom) / 2)},${sw})':h='if(isnan(t),${2 * Math.ceil((height * maxZoom) / 2)},${sh})':eval=frame:flags=fast_bilinear`;
  const x = `if(isnan(t),0,max(0,min(${sw}-${width},(${cx})*${z}-${width / 2})))`;
  const y = `if(isnan(t),0,max(0,min(${sh}-${height},(${cy})*${z}-${height / 2})))`;
  // exact=1: on yuv420p the crop would otherwise round its offsets to even pixels and the push-in would judder.
  return `${scale},crop=${width}:${height}:x='${x}':y='${y}':exact=1`;
}

/** Nearest integer, halves to even: how `crop` turns its offset expressions into pixels (C's lrint). */
export function lrint(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Where the camera is at a time: its shot (a change of shot is a cut) and how that shot frames the picture. */
export interface CameraFraming {
  shot: number;
  /** Changes whenever the scaled size or the crop offset does; equal framings frame a picture alike. */
  framing: string;
}
export type CameraKey = (t: number) => CameraFraming;
/** The key of a camera that never moves. */
export const STILL_CAMERA: CameraKey = () => ({ shot: 0, framing: '' });

/**
 * What `cameraFilter` shows at time t: the shot, and a key of its framing computed with the expressions' own
 * printed numbers and comparisons, the offsets as `crop` rounds them.
 */
export function cameraFilterKey(
  shots: readonly CameraShot[],
  width: number,
  height: number,
  frameWidth = 576,
): CameraKey {
  const k = width / frameWidth;
  const printed = shots.map((s) => {
    const d = Math.max(0.001, s.endSec - s.startSec);
    return {
      end: Number(s.endSec.toFixed(3)),
      start: Number(s.startSec.toFixed(3)),
      from: Number(s.zoomFrom.toFixed(4)),
      slope: Number(((s.zoomTo - s.zoomFrom) / d).toFixed(5)),
      cx: Number((s.cx * k).toFixed(1)),
      cy: Number((s.cy * k).toFixed(1)),
    };
  });
  return (t) => {
    const found = printed.findIndex((p) => t < p.end);
    const shot = found >= 0 ? found : printed.length - 1;
    const s = printed[shot];
    if (!s) return { shot: 0, framing: '' };
    const z = Math.max(1, s.from + s.slope * (t - s.start));
    const sw = 2 * Math.trunc((width * z) / 2);
    const sh = 2 * Math.trunc((height * z) / 2);
    const x = Math.max(0, Math.min(sw - width, s.cx * z - width / 2));
    const y = Math.max(0, Math.min(sh - height, s.cy * z - height / 2));
    return { shot, framing: `${sw}x${sh}+${lrint(x)}+${lrint(y)}` };
  };
}

/** The camera's zoom and crop offset (output pixels) at time t — what `cameraFilter` does, in numbers. */
export function cameraAt(
  shots: readonly CameraShot[],
  t: number,
  width: number,
  height: number,
  frameWidth = 576,
): { zoom: number; x: number; y: number } {
  const k = width / frameWidth;
  const s = shots.find((c) => t < c.endSec) ?? shots[shots.length - 1];
  if (!s) return { zoom: 1, x: 0, y: 0 };
  const d = Math.max(0.001, s.endSec - s.startSec);
  const zoom = Math.max(1, s.zoomFrom + ((s.zoomTo - s.zoomFrom) / d) * (t - s.startSec));
  const sw = 2 * Math.trunc((width * zoom) / 2);
  const sh = 2 * Math.trunc((height * zoom) / 2);
  const x = Math.max(0, Math.min(sw - width, s.cx * k * zoom - width / 2));
  const y = Math.max(0, Math.min(sh - height, s.cy * k * zoom - height / 2));
  return { zoom, x, y };
}

/** A frame-coordinate box (576x1024) where it appears in the output video at time t, camera applied. */
export function boxAtTime(
  box: { x: number; y: number; w: number; h: number },
  shots: readonly CameraShot[],
  t: number,
  width: number,
  height: number,
  frameWidth = 576,
): { x: number; y: number; w: number; h: number } {
  const k = width / frameWidth;
  const c = cameraAt(shots, t, width, height, frameWidth);
  return { x: box.x * k * c.zoom - c.x, y: box.y * k * c.zoom - c.y, w: box.w * k * c.zoom, h: box.h * k * c.zoom };
}
