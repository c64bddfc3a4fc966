import { stat } from 'node:fs/promises';
import { writeFileAtomic } from '../util/files.ts';
import { drawAFewAtOnce } from './frames.ts';
import { cameraFilter, cameraFilterKey, lrint, STILL_CAMERA, type CameraKey, type CameraShot } from './timeline.ts';

/**
 * Filming the rig's camera with the held shots baked into the frames (decision 099).
 *
 * The camera is a gentle push-in plus cuts that hold (punch-in, product close-up). A held shot shows each pose
 * frame through the same crop for its whole length, yet the camera filter scaled every output frame again (~0.2 s
 * of CPU a 9 s video, for pictures made from ~40 distinct pose frames). Here each pose frame a held shot shows is
 * drawn once more through that shot's framing, by the rig from its vector drawing at the zoom (decision 167), and
 * kept beside the pose frame in the actor's cache; the video plays those framed frames and the camera filter only
 * moves during moving shots (the push-in).
 */

/** Frame rate the camera filter runs at (the renderer applies `fps=30` before it). */
const CAMERA_FPS = 30;

/** A held shot's framing in output pixels: the frame scaled to sw x sh, then cut W x H at (x, y). */
export interface Framing {
  sw: number;
  sh: number;
  x: number;
  y: number;
}

/**
 * The framing `cameraFilter` gives a held shot, computed as its expressions do (zoom printed to 4 decimals and
 * centres to 1, sizes even, offsets clamped and rounded as `crop` rounds them); null for zoom 1.
 */
export function heldFraming(s: CameraShot, width: number, height: number, frameWidth = 576): Framing | null {
  const k = width / frameWidth;
  const z = Math.max(1, Number(s.zoomFrom.toFixed(4)));
  if (z === 1) return null;
  const cx = Number((s.cx * k).toFixed(1));
  const cy = Number((s.cy * k).toFixed(1));
  const sw = 2 * Math.trunc((width * z) / 2);
  const sh = 2 * Math.trunc((height * z) / 2);
  const x = lrint(Math.max(0, Math.min(sw - width, cx * z - width / 2)));
  const y = lrint(Math.max(0, Math.min(sh - height, cy * z - height / 2)));
  return { sw, sh, x, y };
}

const isHeld = (s: CameraShot) => Math.abs(s.zoomTo - s.zoomFrom) < 1e-6;

/** First output frame (at CAMERA_FPS) the camera filter gives to the shot after `endSec` (its `lt(t,end)` test). */
const boundaryFrame = (endSec: number) => Math.ceil(Number(endSec.toFixed(3)) * CAMERA_FPS - 1e-6);

/**
 * Draws a pose frame through a framing, as a Y4M frame: the rig draws the view again from its vector drawing at
 * the zoom (decision 167) instead of scaling the drawn frame up.
 */
export type FramedDrawer = (source: string, framing: Framing) => Promise<Buffer>;

/**
 * The part of the frame (frame coordinates, FRAME_W x FRAME_H) a framing shows: the same scale and crop as the
 * camera filter's, so a drawing of this view lands where the scaled and cropped frame would.
 */
export function framingView(
  f: Framing,
  width: number,
  height: number,
  frame: { width: number; height: number } = { width: 576, height: 1024 },
): { x: number; y: number; w: number; h: number } {
  const sx = f.sw / frame.width;
  const sy = f.sh / frame.height;
  return { x: f.x / sx, y: f.y / sy, w: width / sx, h: height / sy };
}

/** A play list entry: a pose frame, the framing it is shown through (null: as drawn), and for how long. */
export interface FilmEntry {
  source: string;
  framing: Framing | null;
  startSec: number;
  endSec: number;
}

/**
 * Cuts the pose segments at the held shots' first frames and gives each piece its shot's framing; returns the
 * pieces and the camera filter for what is left (the moving shots; held shots pass through untouched), with
 * the key that says when that filter's framing changes (render/pace.ts).
 *
 * A held shot starts at the first 30 fps frame the camera gave it (`boundaryFrame`), exactly on a frame time, so
 * `fps` (which rounds input times to the nearest output frame and keeps the latest) takes that frame from the
 * framed piece; a moving shot's frames, before that, come from the unframed pieces.
 */
export function filmPlan(
  segments: ReadonlyArray<{ path: string; durationSec: number }>,
  shots: readonly CameraShot[],
  width: number,
  height: number,
): { entries: FilmEntry[]; camera: string; cameraKey: CameraKey } {
  // Shot spans in frame-exact times: [start, end) with each boundary at the frame the camera switched on.
  const spans = shots.map((s, i) => ({
    start: i === 0 ? 0 : boundaryFrame(shots[i - 1]!.endSec) / CAMERA_FPS,
    end: i === shots.length - 1 ? Infinity : boundaryFrame(s.endSec) / CAMERA_FPS,
    framing: isHeld(s) ? heldFraming(s, width, height) : undefined,
  }));
  const entries: FilmEntry[] = [];
  let t = 0;
  for (const seg of segments) {
    const a = t;
    const b = t + seg.durationSec;
    t = b;
    for (const sp of spans) {
      const from = Math.max(a, sp.start);
      const to = Math.min(b, sp.end);
      if (to - from <= 1e-9) continue;
      const framing = sp.framing ?? null;
      const last = entries[entries.length - 1];
      if (
        last &&
        last.source === seg.path &&
        sameFraming(last.framing, framing) &&
        Math.abs(last.endSec - from) < 1e-9
      ) {
        last.endSec = to;
      } else entries.push({ source: seg.path, framing, startSec: from, endSec: to });
    }
  }
  // The camera filter keeps the moving shots; held ones become zoom 1 (the scale and crop pass frames through).
  const moving = shots.map((s) => (isHeld(s) ? { ...s, zoomFrom: 1, zoomTo: 1 } : s));
  const still = moving.every((s) => s.zoomFrom === 1 && s.zoomTo === 1);
  const camera = still ? 'null' : cameraFilter(moving, width, height);
  const cameraKey = still ? STILL_CAMERA : cameraFilterKey(moving, width, height);
  return { entries, camera, cameraKey };
}

const sameFraming = (a: Framing | null, b: Framing | null) =>
  a === b || (!!a && !!b && a.sw === b.sw && a.sh === b.sh && a.x === b.x && a.y === b.y);

/**
 * How framed frames are made; part of their file name, so frames cached by an older way are never reused
 * (1: bilinear as the camera filter, decision 099; 2: lanczos + unsharp, decision 146; 3: no unsharp below
 * zoom 1.125, decision 159; 4: a rig's drawn again at the zoom, decision 167).
 */
export const FRAMING_VERSION = 4;

/** Where a pose frame shown through a framing is kept: beside the pose frame, named by the framing. */
export const framedPath = (source: string, f: Framing) =>
  source.replace(/\.y4m$/, '') + `.f${f.sw}x${f.sh}+${f.x}+${f.y}.v${FRAMING_VERSION}.y4m`;

/**
 * The concat list of a film plan: framed frames drawn where missing, durations written from cumulative times
 * rounded to 0.1 ms so the pieces start exactly where the plan put them.
 */
export async function filmSegments(
  plan: { entries: readonly FilmEntry[] },
  draw: FramedDrawer,
  signal?: AbortSignal,
): Promise<Array<{ path: string; durationSec: number }>> {
  const todo = new Map<string, { source: string; framing: Framing }>();
  const out: Array<{ path: string; durationSec: number }> = [];
  for (const e of plan.entries) {
    const file = e.framing ? framedPath(e.source, e.framing) : e.source;
    if (e.framing && !todo.has(file)) todo.set(file, { source: e.source, framing: e.framing });
    const r = (v: number) => Math.round(v * 1e4) / 1e4;
    out.push({ path: file, durationSec: r(e.endSec) - r(e.startSec) });
  }
  for (const file of [...todo.keys()]) {
    try {
      await stat(file);
      todo.delete(file);
    } catch {
      /* not made yet */
    }
  }
  if (todo.size) await drawFramedOnce([...todo.entries()], draw, signal);
  return out.filter((s) => s.durationSec > 0);
}

/** Framed frames being made in this process, by file: renders of the same actor running at once make each once. */
const framingInFlight = new Map<string, Promise<void>>();
let framedCount = 0;

/** How many framed frames this process has set out to make (the tests read it). */
export const framedFramesMade = (): number => framedCount;

async function drawFramedOnce(
  jobs: Array<[string, { source: string; framing: Framing }]>,
  draw: FramedDrawer,
  signal?: AbortSignal,
): Promise<void> {
  const others = new Map<string, Promise<void>>();
  const mine = jobs.filter(([file]) => {
    const pending = framingInFlight.get(file);
    if (pending) others.set(file, pending);
    return !pending;
  });
  if (mine.length) {
    const made = drawFramed(mine, draw, signal).finally(() => {
      for (const [file] of mine) if (framingInFlight.get(file) === made) framingInFlight.delete(file);
    });
    for (const [file] of mine) framingInFlight.set(file, made);
    await made;
  }
  // What another render was making and did not finish (its job was cancelled, say) is made here.
  const settled = await Promise.allSettled(others.values());
  if (settled.some((r) => r.status === 'rejected')) {
    const missing: typeof jobs = [];
    for (const job of jobs) {
      if (!others.has(job[0])) continue;
      try {
        await stat(job[0]);
      } catch {
        missing.push(job);
      }
    }
    if (missing.length) await drawFramed(missing, draw, signal);
  }
}

/** Draws the framed frames a few at a time, each written whole under its name (a reader never sees half). */
async function drawFramed(
  jobs: Array<[string, { source: string; framing: Framing }]>,
  draw: FramedDrawer,
  signal?: AbortSignal,
): Promise<void> {
  framedCount += jobs.length;
  await drawAFewAtOnce(jobs, async ([file, { source, framing }]) => {
    signal?.throwIfAborted();
    const frame = await draw(source, framing);
    // A cancelled render leaves what it did not finish to whoever waits for it.
    signal?.throwIfAborted();
    await writeFileAtomic(file, frame);
  });
}
