/**
 * Pacing the rig's frames (decision 156): the camera and the captions are drawn once per distinct picture, not
 * once per output frame.
 *
 * The rig plays pose frames that each hold for a few output frames, and most output frames look exactly like
 * the one before: same pose, same camera window, same caption. The encode used to repeat every frame to 30 fps
 * first and then scale, crop and draw captions on each copy. Here the output frames are worked out ahead, in the
 * same arithmetic the filters use: which pose frame `fps` would show on each 30 fps tick, the camera's scaled
 * size and crop on that tick, and which caption events libass would draw then. Ticks that would look the same
 * become one play list entry starting exactly on its first tick; the filters then run once per entry and `fps`
 * repeats the finished picture. The output frames are the same pictures as before, except that a moving camera
 * moves with the picture rather than on every tick (CAMERA_STEP_TICKS).
 */

import type { CameraKey } from '../motion/timeline.ts';

/** The output frame rate the rig is paced to (the renderer's `fps=30`). */
export const PACE_FPS = 30;

/**
 * Within a moving shot, the camera moves with the picture (decision 172): its framing is taken where a new
 * pose or caption starts, or after this many ticks with neither. Drawing the push-in anew on every tick made
 * every one of its frames a picture of its own (scaled, captioned and blended each time) for a drift of a third
 * of a pixel a tick at the frame's edges; moved every few ticks it is the same motion in steps of about a pixel,
 * in time with the character's own 10–15 changes a second. Cuts between shots still land on their own tick.
 */
export const CAMERA_STEP_TICKS = 3;

/** A frame file held for a while: the concat list's unit. */
export interface PlaySegment {
  path: string;
  durationSec: number;
}

/**
 * A pose frame's play list as the concat demuxer times it: each entry starts where the durations written before
 * it (to 0.1 ms, as the renderer prints them) add up to, in microseconds.
 */
function startsMicros(segments: readonly PlaySegment[]): { starts: number[]; endMicros: number } {
  const starts: number[] = [];
  let t = 0;
  for (const s of segments) {
    starts.push(t);
    t += Math.round(Number(s.durationSec.toFixed(4)) * 1e6);
  }
  return { starts, endMicros: t };
}

/** The 30 fps tick `fps` gives a frame stamped `micros` (nearest, halves up). */
const tickOf = (micros: number) => Math.round((micros * PACE_FPS) / 1e6);

/** Where a tick's frame is stamped once paced: the tick's time in microseconds, as the concat demuxer keeps it. */
export const tickMicros = (tick: number) => Math.round((tick * 1e6) / PACE_FPS);

/** An ASS event as libass times it (milliseconds), with the spans in which it animates. */
export interface CaptionEvent {
  startMs: number;
  endMs: number;
  /** Absolute [from, to] spans (ms) in which the event's picture changes from frame to frame. */
  moving: Array<[number, number]>;
}

const centiseconds = (ts: string): number => {
  const m = /^(\d+):(\d\d):(\d\d)\.(\d\d)$/.exec(ts.trim());
  if (!m) throw new Error(`Unreadable ASS time ${ts}`);
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 100 + Number(m[4]);
};

/**
 * The events of an ASS file and when each one animates. `\fad(in,out)` animates its first `in` and last `out`
 * milliseconds and `\t(t1,t2,…)` the span it names; any other animation (`\t` without times, `\move`, `\fade`,
 * karaoke) counts as animating for the event's whole life, so pacing never merges two frames that could differ.
 */
export function captionEvents(ass: string): CaptionEvent[] {
  const events: CaptionEvent[] = [];
  for (const line of ass.split('\n')) {
    if (!line.startsWith('Dialogue:')) continue;
    const fields = line.slice('Dialogue:'.length).split(',');
    if (fields.length < 10) continue;
    const startMs = centiseconds(fields[1]!) * 10;
    const endMs = centiseconds(fields[2]!) * 10;
    const text = fields.slice(9).join(',');
    const moving: Array<[number, number]> = [];
    for (const m of text.matchAll(/\\fad\(\s*(\d+)\s*,\s*(\d+)\s*\)/g)) {
      moving.push([startMs, startMs + Number(m[1])], [endMs - Number(m[2]), endMs]);
    }
    for (const m of text.matchAll(/\\t\(([^)]*)\)/g)) {
      const args = m[1]!.split(',');
      const timed = args.length >= 3 && /^\s*-?\d+\s*$/.test(args[0]!) && /^\s*-?\d+\s*$/.test(args[1]!);
      moving.push(timed ? [startMs + Number(args[0]), startMs + Number(args[1])] : [startMs, endMs]);
    }
    if (/\\(move|fade)\(|\\(k|K|kf|ko)\d/.test(text)) moving.push([startMs, endMs]);
    events.push({ startMs, endMs, moving });
  }
  return events;
}

/**
 * What libass draws on a frame at `micros`, as a key: the events it shows (libass takes the time in whole
 * milliseconds and shows an event from its start up to, not including, its end), plus the time itself while
 * one of them animates.
 */
function captionKey(events: readonly CaptionEvent[], micros: number): string {
  const now = Math.floor(micros / 1000);
  let key = '';
  let animating = false;
  events.forEach((e, i) => {
    if (e.startMs <= now && now < e.endMs) {
      key += `${i},`;
      if (e.moving.some(([a, b]) => now >= a && now <= b)) animating = true;
    }
  });
  return animating ? `${key}@${now}` : key;
}

/**
 * The play list paced to distinct pictures: each entry starts on a 30 fps tick and covers the ticks that show
 * the same pose frame through the same camera window with the same captions, the camera's window being the one
 * at the entry's start (the filter sees one frame, stamped there). A new entry starts where the pose frame, the
 * captions or the shot change, and where a moving shot's framing has changed after CAMERA_STEP_TICKS ticks.
 * `cameraKey` describes the camera at a time in seconds (as its filter evaluates it). The last entry ends where
 * the original list did, so `fps` makes as many frames as before.
 */
export function paceSegments(
  segments: readonly PlaySegment[],
  cameraKey: CameraKey,
  events: readonly CaptionEvent[],
): PlaySegment[] {
  const { starts, endMicros } = startsMicros(segments);
  if (!segments.length) return [];
  const ticks = Math.ceil((endMicros * PACE_FPS) / 1e6);
  const out: Array<{ path: string; startTick: number }> = [];
  let lastPicture = '';
  let framing = '';
  let shown = 0;
  for (let tick = 0; tick < ticks; tick++) {
    // `fps` shows, on each tick, the latest frame whose rounded time is not after it.
    while (shown + 1 < segments.length && tickOf(starts[shown + 1]!) <= tick) shown++;
    const micros = tickMicros(tick);
    const path = segments[shown]!.path;
    const camera = cameraKey(micros / 1e6);
    const picture = `${path}|${camera.shot}|${captionKey(events, micros)}`;
    const held = tick - (out[out.length - 1]?.startTick ?? 0);
    if (picture !== lastPicture || (camera.framing !== framing && held >= CAMERA_STEP_TICKS)) {
      out.push({ path, startTick: tick });
      framing = camera.framing;
    }
    lastPicture = picture;
  }
  return out.map((e, i) => {
    const from = tickMicros(e.startTick);
    const to = i + 1 < out.length ? tickMicros(out[i + 1]!.startTick) : endMicros;
    return { path: e.path, durationSec: (to - from) / 1e6 };
  });
}
