import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { WordTiming } from '../types.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';

/**
 * Forced alignment by synthesis and dynamic time warping (the method of the aeneas aligner): the script is spoken
 * by the local voice, whose word timings are exact; both that take and the user's recording are turned into
 * MFCC-like frames; DTW finds the cheapest monotonic match of the two frame sequences; each synthetic word
 * boundary is carried across the match into the recording. Works for any voice and language the local engine
 * speaks, needs no acoustic model, and is only as good as the two takes are similar (same words, same order).
 */

/** The sample rate both takes are read at. */
export const ALIGN_RATE = 16000;
const RATE = ALIGN_RATE;
const WINDOW = 400; // 25 ms
const FFT = 512;
const MELS = 26;
const CEPS = 13;
/** DTW holds one byte per cell: above this many cells the frame hop is widened so memory stays bounded. */
const MAX_CELLS = 16_000_000;
const BASE_HOP_SEC = 0.02;

/** A span of audio, in seconds of its file. */
export interface Span {
  startSec: number;
  endSec: number;
}

/** Mono 16 kHz float samples of `file` between `span` (whole file by default), via ffmpeg. */
export async function readSamples(file: string, span?: Span, signal?: AbortSignal): Promise<Float32Array> {
  const out = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.f32`);
  const cut = span
    ? ['-ss', span.startSec.toFixed(3), '-t', Math.max(0.05, span.endSec - span.startSec).toFixed(3)]
    : [];
  await runProcess(
    FFMPEG,
    [
      '-y',
      '-v',
      'error',
      '-protocol_whitelist',
      'file',
      ...cut,
      '-i',
      file,
      '-ac',
      '1',
      '-ar',
      `${RATE}`,
      '-f',
      'f32le',
      out,
    ],
    { timeoutMs: 60_000, signal },
  );
  try {
    const buf = await readFile(out);
    const n = Math.floor(buf.byteLength / 4);
    // A copy, so the floats start on a 4-byte boundary whatever offset the read buffer has.
    return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + n * 4));
  } finally {
    await rm(out, { force: true });
  }
}

/** In-place radix-2 complex FFT (re, im of length n, a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const melToHz = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Triangular mel filters over the FFT bins, 100–7600 Hz. */
function melBank(): Float64Array[] {
  const lo = mel(100);
  const hi = mel(7600);
  const centres = Array.from({ length: MELS + 2 }, (_, i) => melToHz(lo + ((hi - lo) * i) / (MELS + 1)));
  const bin = (hz: number) => (hz * FFT) / RATE;
  return Array.from({ length: MELS }, (_, m) => {
    const f = new Float64Array(FFT / 2 + 1);
    const [a, b, c] = [bin(centres[m]!), bin(centres[m + 1]!), bin(centres[m + 2]!)];
    for (let k = 0; k <= FFT / 2; k++) {
      if (k > a && k <= b) f[k] = (k - a) / (b - a);
      else if (k > b && k < c) f[k] = (c - k) / (c - b);
    }
    return f;
  });
}

/**
 * MFCC frames (13 coefficients each, c0 included) every `hopSec`, each coefficient normalised to zero mean and
 * unit variance over the take, so a louder or brighter microphone does not look like different speech.
 */
export function mfccFrames(samples: Float32Array, hopSec: number): Float32Array[] {
  const hop = Math.max(1, Math.round(hopSec * RATE));
  const count = Math.max(1, Math.floor((samples.length - WINDOW) / hop) + 1);
  const bank = melBank();
  const hann = Float64Array.from({ length: WINDOW }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)));
  const dct = Array.from({ length: CEPS }, (_, c) =>
    Float64Array.from({ length: MELS }, (_, m) => Math.cos((Math.PI * c * (m + 0.5)) / MELS)),
  );
  const frames: Float32Array[] = [];
  const re = new Float64Array(FFT);
  const im = new Float64Array(FFT);
  const power = new Float64Array(FFT / 2 + 1);
  const logMel = new Float64Array(MELS);
  for (let f = 0; f < count; f++) {
    re.fill(0);
    im.fill(0);
    const at = f * hop;
    for (let i = 0; i < WINDOW; i++) {
      const s = samples[at + i] ?? 0;
      // Pre-emphasis lifts the consonants' high frequencies, where words differ most.
      re[i] = (s - 0.97 * (samples[at + i - 1] ?? 0)) * hann[i]!;
    }
    fft(re, im);
    for (let k = 0; k <= FFT / 2; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    for (let m = 0; m < MELS; m++) {
      let e = 0;
      const filter = bank[m]!;
      for (let k = 0; k <= FFT / 2; k++) e += filter[k]! * power[k]!;
      logMel[m] = Math.log(e + 1e-10);
    }
    const out = new Float32Array(CEPS);
    for (let c = 0; c < CEPS; c++) {
      let v = 0;
      for (let m = 0; m < MELS; m++) v += dct[c]![m]! * logMel[m]!;
      out[c] = v;
    }
    frames.push(out);
  }
  for (let c = 0; c < CEPS; c++) {
    let mean = 0;
    for (const fr of frames) mean += fr[c]!;
    mean /= frames.length;
    let variance = 0;
    for (const fr of frames) variance += (fr[c]! - mean) ** 2;
    const sd = Math.sqrt(variance / frames.length) || 1;
    for (const fr of frames) fr[c] = (fr[c]! - mean) / sd;
  }
  return frames;
}

/**
 * The cheapest monotonic match of two frame sequences (Euclidean distance, symmetric step pattern: a diagonal
 * step costs twice a horizontal or vertical one so the path is not biased towards the diagonal). Returns, for each
 * frame of `a`, the first and last frame of `b` it was matched to.
 */
export function dtw(a: readonly Float32Array[], b: readonly Float32Array[]): { first: Int32Array; last: Int32Array } {
  const n = a.length;
  const m = b.length;
  const dist = (i: number, j: number) => {
    const x = a[i]!;
    const y = b[j]!;
    let s = 0;
    for (let k = 0; k < x.length; k++) s += (x[k]! - y[k]!) ** 2;
    return Math.sqrt(s);
  };
  // 0 = diagonal, 1 = from (i-1, j), 2 = from (i, j-1).
  const dir = new Uint8Array(n * m);
  let prev = new Float64Array(m);
  let cur = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const d = dist(i, j);
      if (i === 0 && j === 0) {
        cur[j] = d;
        continue;
      }
      let best = Infinity;
      let step = 0;
      if (i > 0 && j > 0 && prev[j - 1]! + 2 * d < best) {
        best = prev[j - 1]! + 2 * d;
        step = 0;
      }
      if (i > 0 && prev[j]! + d < best) {
        best = prev[j]! + d;
        step = 1;
      }
      if (j > 0 && cur[j - 1]! + d < best) {
        best = cur[j - 1]! + d;
        step = 2;
      }
      cur[j] = best;
      dir[i * m + j] = step;
    }
    [prev, cur] = [cur, prev];
  }
  const first = new Int32Array(n).fill(m);
  const last = new Int32Array(n).fill(-1);
  let i = n - 1;
  let j = m - 1;
  for (;;) {
    if (j < first[i]!) first[i] = j;
    if (j > last[i]!) last[i] = j;
    if (i === 0 && j === 0) break;
    const step = i === 0 ? 2 : j === 0 ? 1 : dir[i * m + j]!;
    if (step === 0) {
      i -= 1;
      j -= 1;
    } else if (step === 1) i -= 1;
    else j -= 1;
  }
  return { first, last };
}

/**
 * The reference's word timings carried into the recording. `reference` and `recording` are the speech spans of
 * each file (leading and trailing silence cut off); words are timed in seconds of their own file.
 */
export async function alignWords(input: {
  referencePath: string;
  referenceSpan: Span;
  referenceWords: readonly WordTiming[];
  recordingPath: string;
  recordingSpan: Span;
  signal?: AbortSignal;
}): Promise<WordTiming[]> {
  const refLen = input.referenceSpan.endSec - input.referenceSpan.startSec;
  const recLen = input.recordingSpan.endSec - input.recordingSpan.startSec;
  const hopSec = Math.max(BASE_HOP_SEC, Math.sqrt((refLen * recLen) / MAX_CELLS));
  const [ref, rec] = await Promise.all([
    readSamples(input.referencePath, input.referenceSpan, input.signal),
    readSamples(input.recordingPath, input.recordingSpan, input.signal),
  ]);
  const a = mfccFrames(ref, hopSec);
  const b = mfccFrames(rec, hopSec);
  const { first, last } = dtw(a, b);
  // A reference time → the recording time its frame was matched to (the middle of its matched run).
  const carry = (t: number, edge: 'start' | 'end'): number => {
    const i = Math.min(a.length - 1, Math.max(0, Math.round((t - input.referenceSpan.startSec) / hopSec)));
    const j = edge === 'start' ? first[i]! : last[i]!;
    const sec = input.recordingSpan.startSec + (j + 0.5) * hopSec;
    return Math.min(input.recordingSpan.endSec, Math.max(input.recordingSpan.startSec, sec));
  };
  return input.referenceWords.map((w) => {
    const startSec = carry(w.startSec, 'start');
    const endSec = Math.max(startSec + 0.04, carry(w.endSec, 'end'));
    return { word: w.word, startSec: round3(startSec), endSec: round3(endSec) };
  });
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
