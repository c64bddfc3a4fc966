import { createHash } from 'node:crypto';
import type { WordTiming } from '../types.ts';
import { blinkTimes } from '../motion/timeline.ts';
import {
  MOUTH_SHAPES,
  PHOTO_VISEMES,
  type EyeState,
  type FaceState,
  type HeadOffset,
  type PhotoViseme,
} from './face.ts';

/**
 * The photo actor's performance: mouth shapes from the words' sounds, eased and leading the voice, blinks, small
 * eye moves, a slow sway with breathing and a nod on stressed words, sampled at 30 fps and snapped to a small set
 * of drawable states so each distinct state is drawn once per actor.
 */

const FPS = 30;
/** A mouth shape leads its sound by this much (the lips get there before the sound starts). */
export const MOUTH_LEAD_SEC = 0.06;
/** Time constant of the mouth's easing towards its next shape. */
const EASE_SEC = 0.035;

/** Letter groups → mouth shape (the voices give word timings: sounds are read from spelling). */
const UNITS: Array<[RegExp, PhotoViseme | null]> = [
  [/^(th)/, 'th'],
  [/^(sh|ch|j|ge)/, 'ss'],
  [/^(ph|f|v)/, 'fv'],
  [/^(mm|bb|pp|m|b|p)/, 'rest'],
  [/^(oo|ou|ew|w|q|u)/, 'oo'],
  [/^(oa|ow|oi|oy|o|au|aw)/, 'oh'],
  [/^(ee|ea|ie|ei|ey|y|i)/, 'ee'],
  [/^(ay|ai|e)/, 'eh'],
  [/^(a)/, 'aa'],
  [/^(s|z|c|x|t|d)/, 'ss'],
  [/^(l|n)/, 'th'],
  [/^(ng|ck|gh|k|g|h|r)/, 'kg'],
];

/** Sounds of a word as mouth shapes, in order (a word that spells nothing still moves the jaw). */
export function photoVisemesOfWord(word: string): PhotoViseme[] {
  let w = word
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]/g, '');
  // A silent final e.
  if (w.length > 3 && w.endsWith('e') && !/[aeiouy]e$/.test(w)) w = w.slice(0, -1);
  const out: PhotoViseme[] = [];
  while (w.length > 0) {
    const hit = UNITS.find(([re]) => re.test(w));
    if (!hit) {
      w = w.slice(1);
      continue;
    }
    const m = hit[0].exec(w)!;
    if (hit[1] && out[out.length - 1] !== hit[1]) out.push(hit[1]);
    w = w.slice(m[0].length);
  }
  if (!out.some((v) => MOUTH_SHAPES[v].open >= 0.12)) out.push('eh');
  return out;
}

interface Sound {
  viseme: PhotoViseme;
  startSec: number;
  endSec: number;
}

/** Sounds over time: a word's sounds share its span, vowels a little longer than consonants. */
export function soundsOf(words: readonly WordTiming[]): Sound[] {
  const out: Sound[] = [];
  for (const w of words) {
    const shapes = photoVisemesOfWord(w.word);
    const weight = shapes.map((v) => (['aa', 'eh', 'ee', 'oh', 'oo'].includes(v) ? 1.6 : 1));
    const total = weight.reduce((a, b) => a + b, 0);
    let t = w.startSec;
    shapes.forEach((v, i) => {
      const d = ((w.endSec - w.startSec) * weight[i]!) / total;
      out.push({ viseme: v, startSec: t, endSec: t + d });
      t += d;
    });
  }
  return out;
}

/** Mouth parameters as a vector, to ease between shapes and find the nearest drawable one. */
const vec = (v: PhotoViseme, k: number): number[] => {
  const m = MOUTH_SHAPES[v];
  return [m.open * k * 3, (m.width - 1) * k * 3, m.lift * k * 6, m.tuck * k, m.tongue * k * 0.5];
};
/** Drawable mouths: every shape in full, three quarters and half way, and closed. */
const MOUTH_KEYS: Array<{ mouth: PhotoViseme; amount: number; v: number[] }> = [
  { mouth: 'rest', amount: 1, v: vec('rest', 1) },
  ...PHOTO_VISEMES.filter((v) => v !== 'rest').flatMap((v) => [
    { mouth: v, amount: 1, v: vec(v, 1) },
    { mouth: v, amount: 0.75, v: vec(v, 0.75) },
    { mouth: v, amount: 0.5, v: vec(v, 0.5) },
  ]),
];

/** Idle head cycle (degrees of tilt, breath as a move up in face lengths), one step every IDLE_STEP_SEC. */
const IDLE: ReadonlyArray<HeadOffset> = [
  { tilt: 0, down: 0 },
  { tilt: 0.6, down: -0.004 },
  { tilt: 1.2, down: -0.008 },
  { tilt: 0.6, down: -0.004 },
  { tilt: 0, down: 0 },
  { tilt: -0.6, down: -0.004 },
  { tilt: -1.2, down: -0.008 },
  { tilt: -0.6, down: -0.004 },
];
const IDLE_STEP_SEC = 0.6;
const NOD_DOWN = 0.018;
const NOD_SEC = 0.4;

/** Stressed words get a nod: long words, at most one every 1.8 s. */
export function nodTimes(words: readonly WordTiming[]): number[] {
  const out: number[] = [];
  for (const w of words) {
    const letters = w.word.replace(/[^\p{L}\p{N}]/gu, '').length;
    const last = out[out.length - 1] ?? -Infinity;
    if ((letters >= 6 || /!$/.test(w.word)) && w.startSec - last >= 1.8) out.push(w.startSec);
  }
  return out;
}

export interface StateSegment {
  state: FaceState;
  startSec: number;
  durationSec: number;
}

/**
 * The voice's loudness, 0 (silent) to 1 (its loud syllables), FPS values a second: RMS over 60 ms in dB, from 36 dB
 * under the voice's own loud level (its 95th percentile) up to that level.
 */
export function voiceLoudness(samples: Float32Array, rate: number): number[] {
  const hop = rate / FPS;
  const half = Math.round(0.03 * rate);
  const db: number[] = [];
  for (let c = 0; c * hop < samples.length; c++) {
    const mid = Math.round(c * hop);
    let sum = 0;
    let n = 0;
    for (let i = Math.max(0, mid - half); i < Math.min(samples.length, mid + half); i++) {
      sum += samples[i]! ** 2;
      n++;
    }
    db.push(20 * Math.log10(Math.sqrt(n ? sum / n : 0) + 1e-9));
  }
  const sorted = [...db].sort((a, b) => a - b);
  const top = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  return db.map((v) => Math.min(1, Math.max(0, (v - (top - 36)) / 36)));
}

/** Below this loudness the voice is silent there (a pause inside a word's span, a stop's closure): lips shut. */
const SILENT = 0.3;
/** Inside speech the lips part at least this (mouth widths), except on m, b, p (closed) and f, v (tucked). */
const MIN_SPEAKING_OPEN = 0.12;

/** The states of a whole video, merged where nothing changes. */
export function photoTimeline(input: {
  words: readonly WordTiming[];
  totalSec: number;
  seed: string;
  /** The voice's loudness at FPS a second (`voiceLoudness`): the mouth opens with it and shuts in its pauses. */
  loudness?: readonly number[] | null;
}): StateSegment[] {
  const { totalSec } = input;
  const loud = input.loudness ?? null;
  const loudAt = (t: number) => (loud ? (loud[Math.min(loud.length - 1, Math.max(0, Math.round(t * FPS)))] ?? 0) : 1);
  const sounds = soundsOf(input.words);
  const blinks = blinkTimes(input.seed, totalSec);
  const nods = nodTimes(input.words);
  const h = createHash('sha256').update(`${input.seed}/gaze`).digest();
  const frames = Math.max(1, Math.round(totalSec * FPS));
  const out: StateSegment[] = [];
  let cur = vec('rest', 1);
  let si = 0;
  const k = 1 - Math.exp(-1 / FPS / EASE_SEC);
  for (let f = 0; f < frames; f++) {
    const t = f / FPS;
    const ahead = t + MOUTH_LEAD_SEC;
    while (si < sounds.length - 1 && sounds[si]!.endSec <= ahead) si++;
    const s = sounds[si];
    const l = loudAt(ahead);
    let target = vec('rest', 1);
    if (s && ahead >= s.startSec && ahead < s.endSec && (!loud || l >= SILENT)) {
      // The phone gives the shape; the voice's loudness how far the jaw goes (a loud vowel opens wider than a
      // quiet one), never below a speaking mouth's opening except where the lips close or tuck.
      const m = MOUTH_SHAPES[s.viseme];
      const gain = loud ? 0.35 + 0.85 * l : 1;
      const k =
        m.open > 0 && m.tuck === 0 ? Math.max(gain, MIN_SPEAKING_OPEN / m.open) : s.viseme === 'rest' ? 1 : gain;
      target = vec(s.viseme, Math.min(1.15, k));
    }
    cur = cur.map((c, i) => c + (target[i]! - c) * k);
    let best = MOUTH_KEYS[0]!;
    let bestD = Infinity;
    for (const key of MOUTH_KEYS) {
      const d = key.v.reduce((a, x, i) => a + (x - cur[i]!) ** 2, 0);
      if (d < bestD) {
        bestD = d;
        best = key;
      }
    }
    const eyes = eyesAt(t, blinks, h);
    const nod = nods.find((n) => t >= n - 0.05 && t < n - 0.05 + NOD_SEC);
    let head = IDLE[Math.floor(t / IDLE_STEP_SEC) % IDLE.length]!;
    if (nod !== undefined) {
      const p = (t - (nod - 0.05)) / NOD_SEC;
      head = { tilt: 0, down: p < 0.25 || p > 0.75 ? NOD_DOWN / 2 : NOD_DOWN };
    }
    const state: FaceState = { mouth: best.mouth, amount: best.amount, eyes, head };
    const last = out[out.length - 1];
    if (last && sameState(last.state, state)) last.durationSec += 1 / FPS;
    else out.push({ state, startSec: t, durationSec: 1 / FPS });
  }
  // The last segment ends at the video's end exactly.
  const end = out[out.length - 1]!;
  end.durationSec = Math.max(1 / FPS, totalSec - end.startSec);
  return out;
}

const sameState = (a: FaceState, b: FaceState) =>
  a.mouth === b.mouth &&
  a.amount === b.amount &&
  a.eyes === b.eyes &&
  a.head.tilt === b.head.tilt &&
  a.head.down === b.head.down;

/**
 * Eyes at t: a blink closes in a frame, stays shut four (~130 ms) and opens over two, about 230 ms in all (eyelids,
 * not a cut); the gaze drifts every few seconds.
 */
function eyesAt(t: number, blinks: readonly number[], h: Buffer): EyeState {
  for (const b of blinks) {
    const f = Math.floor((t - b) * FPS);
    if (f >= 0 && f < 7) return f === 0 || f >= 5 ? 'half' : 'closed';
  }
  const slot = Math.floor(t / 1.7);
  const v = h[slot % h.length]! % 7;
  return v === 0 ? 'left' : v === 1 ? 'right' : 'open';
}
