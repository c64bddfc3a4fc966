import { closeSync, openSync, readSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PhotoFace, QualityCheck } from '@hookreel/contracts';
import { descriptorSimilarity, faceLength } from '../photo/analyze.ts';
import { detectFrames, type RawFace } from '../photo/face-worker.ts';
import { MESH, eyesOpenness, mouthOpenness, type Point3 } from '../photo/landmarks.ts';
import { lightness, lightnessSpreadIn, type Rgb } from '../photo/pixels.ts';
import type { WordTiming } from '../types.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { mp4Facts } from './mp4.ts';

/**
 * The photo actor's checks, measured on frames of the finished MP4 (decision 191): the face is detected on
 * frames sampled at SAMPLE_FPS, its mouth opening compared with the voice's loudness, its descriptor with the
 * source photo's, its eyes followed for blinks, and the ring where the animation's warp ends looked at for a seam.
 */
export const PHOTO_CHECKS = {
  /**
   * Frames sampled a second (decision 203): every 3rd frame of the renders' 30 fps. The animation's blink holds
   * the lids shut for four frames (133 ms, after a half-lowered frame and before two), and a blink's shut phase is
   * 100–150 ms in life (the test videos' 120 ms): a sample every 100 ms lands on a shut frame of every blink,
   * whatever its phase (7.5 a second measured missing the test video's blinks). Lip sync follows syllables (4–6 a
   * second), which 10 samples a second resolve; its lag is searched in the sound's own time (`lagStepSec`).
   */
  fps: 10,
  /** Sampled frames are this wide (the height keeps the video's shape): a face stays over ~100 px tall. */
  width: 360,
  /** Pearson correlation of mouth opening with the voice envelope, best within ±LAG_SEC. */
  minLipSync: 0.5,
  maxLagSec: 0.16,
  /** The lag is searched in steps of this (the envelope is read at any time, not only at the sampled frames). */
  lagStepSec: 0.04,
  /** In silences the mouth is at rest: median opening at most this above the quietest tenth of the video's. */
  silenceOpenMax: 0.05,
  /**
   * Cosine similarity of a frame's face descriptor to the photo's (lowest of the described frames). Measured:
   * the same photo mirrored, dimmed or grey 0.95–0.97, in a video 0.85, crudely animated 0.71–0.75, its eyes
   * painted over 0.72; the 12 drawn catalogue faces 0.16–0.29.
   */
  minIdentity: 0.5,
  /** Share of sampled frames (before the end card) with the face found. */
  minFaceFound: 0.98,
  /** Blinks every 2–6 s: the longest gap between blinks (and before the first / after the last) at most 6 s... */
  maxBlinkGapSec: 6,
  /** ...and the shortest at least this (two blinks closer than 2 s read as a flutter; a double blink is one). */
  minBlinkGapSec: 2,
  /** A blink: the eyes' openness below this share of the video's median, on at least one sampled frame. */
  blinkShare: 0.55,
  /** Tracked frames whose eyes read below this share of the median are detected again in full (decision 203). */
  blinkRecheckShare: 0.8,
  /**
   * Seam: the edge strength across the warp's edge above the first frame's (L* units; worst tenth of the edge's
   * points, 95th percentile of frames). Measured: still photo 0, smooth fade 3.1, hard-edged warp 25.9.
   */
  maxSeam: 8,
  /** The warped region's edge (warpEdge): radius as a share of the face's length. */
  warpRadius: 0.58,
  /** Identity is measured on this many frames spread over the video. */
  identityFrames: 5,
} as const;

export interface PhotoChecksInput {
  videoPath: string;
  /** The source photo's face as stored with the avatar. */
  face: PhotoFace;
  /** The spoken words (voice timings): silences are the gaps well away from any word. */
  words: readonly WordTiming[];
  /** Where the actor's scene ends (the end card has no face); the video's length if none. */
  sceneEndSec: number;
  /** The animation's warp radius (share of the face's length) when it is not PHOTO_CHECKS.warpRadius. */
  warpRadius?: number;
  /**
   * The animation's own edge of its warped region, from a frame's 478 points (pieces of polyline in that frame's
   * pixels), instead of `warpEdge`. It is scaled by 0.85 and 1.15 about its centroid for the other two rings.
   */
  edge?: (points: readonly Point3[]) => Point3[][];
  signal?: AbortSignal;
}

export interface PhotoMeasures {
  frames: number;
  faceFound: number;
  lipSync: number | null;
  lipLagSec: number | null;
  silenceOpen: number | null;
  identity: number | null;
  blinks: number[];
  seam: number | null;
}

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

/** Sampled frames of the video as raw RGB24, and their size. */
async function sampleFrames(
  videoPath: string,
  dir: string,
  endSec: number,
  signal?: AbortSignal,
): Promise<{ file: string; width: number; height: number; count: number }> {
  const file = path.join(dir, 'frames.rgb');
  const facts = await mp4Facts(videoPath);
  const width = PHOTO_CHECKS.width;
  const height = 2 * Math.round((width * facts.height) / facts.width / 2);
  await runProcess(
    FFMPEG,
    [
      ...['-hide_banner', '-loglevel', 'error', '-i', videoPath, '-t', endSec.toFixed(3)],
      ...['-vf', `fps=${PHOTO_CHECKS.fps},scale=${width}:${height}:flags=bicubic`],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-y', file],
    ],
    { timeoutMs: 120_000, signal },
  );
  const { size } = await stat(file);
  return { file, width, height, count: Math.floor(size / (width * height * 3)) };
}

/**
 * The voice's loudness envelope from the MP4's own sound: a function giving the RMS in dB over 80 ms (floor −60)
 * at any times, so the envelope can be read at the sampled frames' instants shifted by any lag.
 */
async function voiceEnvelope(
  videoPath: string,
  dir: string,
  signal?: AbortSignal,
): Promise<(times: readonly number[]) => number[]> {
  const rate = 8000;
  const file = path.join(dir, 'voice.s16');
  await runProcess(
    FFMPEG,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      videoPath,
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(rate),
      '-f',
      's16le',
      '-y',
      file,
    ],
    { timeoutMs: 60_000, signal },
  );
  const buf = await readFile(file);
  const pcm = new Int16Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 2));
  const half = Math.round(0.04 * rate);
  return (times) =>
    times.map((t) => {
      const c = Math.round(t * rate);
      let sum = 0;
      let n = 0;
      for (let i = Math.max(0, c - half); i < Math.min(pcm.length, c + half); i++) {
        sum += (pcm[i]! / 32768) ** 2;
        n++;
      }
      const rms = n ? Math.sqrt(sum / n) : 0;
      return Math.max(-60, 20 * Math.log10(rms + 1e-9));
    });
}

/**
 * The best correlation of the mouth's opening with the voice's envelope read `lag` seconds later, for lags within
 * ±maxLag in steps of `step` (frames without a face left out): the lag is searched in the sound's time, finer than
 * the frames are sampled.
 */
export function bestLagInTime(
  open: readonly (number | null)[],
  times: readonly number[],
  envelopeAt: (times: readonly number[]) => number[],
  maxLag: number,
  step: number,
): { r: number | null; lag: number } {
  const kept = open.flatMap((v, i) => (v === null || v === undefined ? [] : [i]));
  const x = kept.map((i) => open[i]!);
  let best: { r: number | null; lag: number } = { r: null, lag: 0 };
  const steps = Math.round(maxLag / step);
  for (let k = -steps; k <= steps; k++) {
    const lag = k * step;
    const r = pearson(x, envelopeAt(kept.map((i) => times[i]! + lag)));
    if (r !== null && (best.r === null || r > best.r)) best = { r, lag };
  }
  return best;
}

/** Pearson correlation; null when either series is flat. */
export function pearson(a: readonly number[], b: readonly number[]): number | null {
  const n = Math.min(a.length, b.length);
  if (n < 3) return null;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return saa > 1e-12 && sbb > 1e-12 ? sab / Math.sqrt(saa * sbb) : null;
}

/** Blink moments (s): runs of frames whose eye openness falls below `share` of the median. */
export function findBlinks(open: readonly (number | null)[], fps: number, share: number): number[] {
  const known = open.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (!known.length) return [];
  const median = known[Math.floor(known.length / 2)]!;
  const blinks: number[] = [];
  let inBlink = false;
  open.forEach((v, i) => {
    const closed = v !== null && v < share * median;
    if (closed && !inBlink) blinks.push(round(i / fps));
    inBlink = closed;
  });
  return blinks;
}

/**
 * The edge of the warped region (decision 191): the lower half of a circle around the lower inner lip (mesh point
 * 14), radius `radius` times the face's length (forehead to chin), and its diameter along the lip line left and
 * right of the mouth (the mouth itself opens there). The animation's displacement fades to nothing on it; a hard
 * edge shows as a step across it. Pieces of polyline in the picture's pixels.
 */
export function warpEdge(points: readonly Point3[], radius: number = PHOTO_CHECKS.warpRadius): Point3[][] {
  const c = points[MESH.innerLipBottom]!;
  const r = radius * faceLength(points);
  const arc: Point3[] = [];
  for (let k = 0; k <= 24; k++) {
    const a = (Math.PI * k) / 24; // 0..π: the lower half (image y grows downwards)
    arc.push([c[0] + r * Math.cos(a), c[1] + r * Math.sin(a), 0]);
  }
  const [l, rr] = MESH.mouthCorners.map((i) => points[i]!);
  const half = (Math.abs(rr![0] - l![0]) / 2) * 1.3;
  if (half >= r) return [arc];
  return [
    arc,
    [
      [c[0] - r, c[1], 0],
      [c[0] - half, c[1], 0],
    ],
    [
      [c[0] + half, c[1], 0],
      [c[0] + r, c[1], 0],
    ],
  ];
}

/** Edge strength across the edge at points 2 px apart: |L*| difference 3 px either side, across each segment. */
function ringEdge(img: Rgb, pieces: readonly (readonly Point3[])[], shift = 0): number[] {
  const L = (x: number, y: number) => {
    const xi = Math.max(0, Math.min(img.width - 1, Math.round(x)));
    const yi = Math.max(0, Math.min(img.height - 1, Math.round(y)));
    const i = (yi * img.width + xi) * 3;
    return lightness(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!);
  };
  const out: number[] = [];
  for (const ring of pieces)
    for (let k = 0; k + 1 < ring.length; k++) {
      const [x0, y0] = ring[k]!;
      const [x1, y1] = ring[k + 1]!;
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (len < 1e-6) continue;
      const nx = -(y1 - y0) / len;
      const ny = (x1 - x0) / len;
      const steps = Math.max(1, Math.round(len / 2));
      for (let s = 0; s < steps; s++) {
        const x = x0 + ((x1 - x0) * s) / steps;
        const y = y0 + ((y1 - y0) * s) / steps;
        const cx = x + shift * nx;
        const cy = y + shift * ny;
        out.push(Math.abs(L(cx + 3 * nx, cy + 3 * ny) - L(cx - 3 * nx, cy - 3 * ny)));
      }
    }
  return out;
}

/**
 * The photo's own edges along a ring, as the first frame shows them, widened: at each point the strongest within
 * SEAM_SLACK_PX across the ring and one point along it. The rings are placed on later frames from the detected
 * eyes, which are off by a pixel or two (more after a push-in scales the face): a hair line or collar the ring
 * then crosses a little elsewhere must not count as a seam. A seam is an edge where the photo had none near.
 */
function baseEdge(img: Rgb, ring: readonly (readonly Point3[])[]): number[] {
  const shifted: number[][] = [];
  for (let d = -SEAM_SLACK_PX; d <= SEAM_SLACK_PX; d++) shifted.push(ringEdge(img, ring, d));
  const across = shifted[0]!.map((_, k) => Math.max(...shifted.map((e) => e[k]!)));
  return across.map((_, k) => Math.max(across[k - 1] ?? 0, across[k]!, across[k + 1] ?? 0));
}
/** How far (px of the sampled frames, 360 wide) a ring may be off where the photo's own edges are concerned. */
export const SEAM_SLACK_PX = 2;

/** L* at each point of a ring's pieces, 2 px apart as `ringEdge` walks them. */
function ringLightness(img: Rgb, pieces: readonly (readonly Point3[])[]): number[] {
  const out: number[] = [];
  for (const ring of pieces)
    for (let k = 0; k + 1 < ring.length; k++) {
      const [x0, y0] = ring[k]!;
      const [x1, y1] = ring[k + 1]!;
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (len < 1e-6) continue;
      const steps = Math.max(1, Math.round(len / 2));
      for (let s = 0; s < steps; s++) {
        const xi = Math.max(0, Math.min(img.width - 1, Math.round(x0 + ((x1 - x0) * s) / steps)));
        const yi = Math.max(0, Math.min(img.height - 1, Math.round(y0 + ((y1 - y0) * s) / steps)));
        const i = (yi * img.width + xi) * 3;
        out.push(lightness(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!));
      }
    }
  return out;
}

/**
 * Where the rings lie on a frame: the detected eyes and eye span place them only to within a few percent (the
 * detector's whole mesh grows by ~5% when the jaw drops), so the placement is refined on the picture itself. The
 * outer ring lies beyond the warp, where a frame shows the photo as the first frame did, only moved by the camera:
 * of scales within REGISTER_RANGE of the eyes' estimate and small shifts up or down, the one whose lightness along
 * that ring is closest to the first frame's is taken.
 */
function register(
  img: Rgb,
  outer: Point3[][],
  outer0: readonly number[],
  k0: number,
  place: (k: number, dy: number) => (pieces: Point3[][]) => Point3[][],
): (pieces: Point3[][]) => Point3[][] {
  let best = { cost: Infinity, k: k0, dy: 0 };
  for (let dk = -REGISTER_RANGE; dk <= REGISTER_RANGE + 1e-9; dk += 0.01)
    for (let dy = -2; dy <= 2; dy++) {
      const k = k0 * (1 + dk);
      const l = ringLightness(img, place(k, dy)(outer));
      let cost = 0;
      for (let j = 0; j < l.length; j++) cost += Math.abs(l[j]! - (outer0[j] ?? l[j]!));
      if (cost < best.cost) best = { cost, k, dy };
    }
  return place(best.k, best.dy);
}
/** How far (share of the scale) the picture may correct the eyes' placement of the rings. */
export const REGISTER_RANGE = 0.07;

/** Pieces of polyline scaled by k about the centroid of all their points. */
function scaleAbout(pieces: Point3[][], k: number): Point3[][] {
  const all = pieces.flat();
  const cx = all.reduce((a, p) => a + p[0], 0) / Math.max(1, all.length);
  const cy = all.reduce((a, p) => a + p[1], 0) / Math.max(1, all.length);
  return pieces.map((piece) => piece.map(([x, y, z]) => [cx + (x - cx) * k, cy + (y - cy) * k, z] as Point3));
}

/** Distance between the outer eye corners: the face's scale in a frame (the warp never moves them). */
const eyeSpan = (m: readonly Point3[]): number => {
  const l = m[MESH.leftEye.corners[0]]!;
  const r = m[MESH.rightEye.corners[1]]!;
  return Math.hypot(r[0] - l[0], r[1] - l[1]);
};

/**
 * How much each frame's face is scaled from the first found frame's (a camera push-in or cut to a close-up), for
 * the seam rings to grow with it: the eye span's median over five frames, over the first frame's, and 1 while it
 * stays within RING_SCALE_DEADBAND (the span read from a frame jitters by a percent or two: following that would
 * slide the rings over the picture on a still camera and find edges that are not seams).
 */
export function ringScales(spans: readonly (number | null)[]): number[] {
  const first = spans.find((v): v is number => v !== null && v > 0);
  return spans.map((_, i) => {
    if (!first) return 1;
    const near = spans.slice(Math.max(0, i - 2), i + 3).filter((v): v is number => v !== null && v > 0);
    if (!near.length) return 1;
    near.sort((a, b) => a - b);
    const k = near[Math.floor(near.length / 2)]! / first;
    return Math.abs(k - 1) <= RING_SCALE_DEADBAND ? 1 : k;
  });
}
export const RING_SCALE_DEADBAND = 0.03;

/** The median of the known values, or null. */
const median = (xs: readonly (number | null)[]): number | null => {
  const known = xs.filter((v): v is number => v !== null).sort((a, b) => a - b);
  return known.length ? known[Math.floor(known.length / 2)]! : null;
};

/** The q-quantile of some numbers (0 for none). */
const quantile = (xs: readonly number[], q: number): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/**
 * Measures the photo actor on the finished video and returns the report's checks for it (decision 191). The
 * face detector's child process reads the sampled frames; nothing of the render's plan is trusted.
 */
export async function photoActorChecks(
  input: PhotoChecksInput,
): Promise<{ checks: QualityCheck[]; measures: PhotoMeasures }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-photo-report-'));
  let frameFile: number | null = null;
  try {
    const P = PHOTO_CHECKS;
    const frames = await sampleFrames(input.videoPath, dir, input.sceneEndSec, input.signal);
    const n = frames.count;
    const describe = Array.from({ length: P.identityFrames }, (_, k) =>
      Math.min(n - 1, Math.round(((k + 0.5) * n) / P.identityFrames)),
    );
    // The face is tracked through the frames (the detector on a few, the mesh on all; face-child.mjs).
    const detected = await detectFrames(
      { path: frames.file, width: frames.width, height: frames.height, count: n, describe, track: true },
      { signal: input.signal },
    );
    // One sampled frame at a time, read from the file into one buffer, instead of every frame in memory (~64 MB a
    // report, two reports at once on two render lanes). Each use below is done with a frame before the next read.
    const size = frames.width * frames.height * 3;
    const fd = openSync(frames.file, 'r');
    frameFile = fd;
    const frameBuffer = Buffer.alloc(size);
    const frameAt = (i: number) => {
      readSync(fd, frameBuffer, 0, size, i * size);
      return { data: frameBuffer, width: frames.width, height: frames.height };
    };
    const best = (fs: readonly RawFace[]) =>
      fs.filter((f) => f.score >= 0.5).sort((a, b) => b.box[3] - a.box[3])[0] ?? null;
    const faces: (RawFace | null)[] = detected.map(best);

    // Blinks: eye openness from the mesh times the eyes' own contrast (the mesh alone under-reads closed lids).
    const eyeMeasure = (f: RawFace | null, i: number): number | null => {
      if (!f) return null;
      const img = frameAt(i);
      const o = eyesOpenness(f.mesh);
      const le = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246].map((k) => f.mesh[k]!);
      const re = [362, 382, 381, 380, 374, 373, 390, 249, 263, 466, 388, 387, 386, 385, 384, 398].map(
        (k) => f.mesh[k]!,
      );
      const spread = (lightnessSpreadIn(img, le) + lightnessSpreadIn(img, re)) / 2;
      return ((o.left + o.right) / 2) * spread;
    };
    const eyes = faces.map(eyeMeasure);
    // Frames whose eyes read as closing are detected again in full, as every frame was before tracking (the blink
    // threshold was calibrated on full detections, and the mesh on a carried box reads some lids differently): the
    // more closed of the two readings counts. A frame nowhere near closed is not looked at twice.
    const eyeMedian = median(eyes);
    const recheck = eyes.flatMap((v, i) =>
      v !== null && eyeMedian !== null && v < P.blinkRecheckShare * eyeMedian && !describe.includes(i) ? [i] : [],
    );
    if (recheck.length) {
      const again = await detectFrames(
        { path: frames.file, width: frames.width, height: frames.height, count: n, describe: [], only: recheck },
        { signal: input.signal },
      );
      recheck.forEach((i, k) => {
        const full = eyeMeasure(best(again[k] ?? []), i);
        if (full !== null) eyes[i] = Math.min(eyes[i] ?? full, full);
      });
    }
    const found = faces.filter(Boolean).length;
    const times = faces.map((_, i) => i / P.fps);

    // Lip sync: mouth opening against the voice's loudness, best within the allowed lead or lag.
    const open = faces.map((f) => (f ? mouthOpenness(f.mesh) : null));
    const envelopeAt = await voiceEnvelope(input.videoPath, dir, input.signal);
    const sync = bestLagInTime(open, times, envelopeAt, P.maxLagSec, P.lagStepSec);
    // Silences: well away from any word (and not the first or last 0.2 s).
    const silent = times.map(
      (t) =>
        t > 0.2 && t < input.sceneEndSec - 0.2 && input.words.every((w) => t < w.startSec - 0.2 || t > w.endSec + 0.2),
    );
    const known = open.filter((v): v is number => v !== null).sort((a, b) => a - b);
    const rest = known.length ? known[Math.floor(known.length * 0.1)]! : 0;
    const silentOpen = open.filter((v, i) => silent[i] && v !== null) as number[];
    silentOpen.sort((a, b) => a - b);
    const silenceOpen = silentOpen.length ? silentOpen[Math.floor(silentOpen.length / 2)]! - rest : null;

    // Identity: the photo's descriptor against the described frames'.
    const sims = describe
      .map((i) => faces[i]?.descriptor)
      .filter((d): d is number[] => !!d)
      .map((d) => descriptorSimilarity(d, input.face.descriptor));
    const identity = sims.length ? Math.min(...sims) : null;

    const blinks = findBlinks(eyes, P.fps, P.blinkShare);
    const end = n / P.fps;
    const marks = [0, ...blinks, end];
    const gaps = marks.slice(1).map((t, i) => t - marks[i]!);
    const inner = blinks.slice(1).map((t, i) => t - blinks[i]!);

    // Seam: edge strength along the warp's edge, over the first found frame's (the photo at rest), on three
    // rings (0.85, 1 and 1.15 of the radius): the face's length read from a video frame varies by ~10%, and the
    // displacement has faded by 0.85 of the radius, so a smooth warp shows nothing on any of them.
    const first = faces.findIndex(Boolean);
    let seam: number | null = null;
    if (first >= 0) {
      // The rings are placed once, from the first frame's face, and then follow the eyes, which the warp never
      // moves: a ring on the moving lip would slide over the picture and see edges that are not seams.
      const ref = faces[first]!.mesh;
      // The four eye corners (mesh points; the frames are detected without the iris model).
      const eyesMid = (m: readonly Point3[]) => {
        const c = [...MESH.leftEye.corners, ...MESH.rightEye.corners].map((k) => m[k]!);
        return [c.reduce((a, p) => a + p[0], 0) / 4, c.reduce((a, p) => a + p[1], 0) / 4] as const;
      };
      const radius = input.warpRadius ?? P.warpRadius;
      const custom = input.edge;
      const rings = custom
        ? [0.85, 1, 1.15].map((k) => scaleAbout(custom(ref), k))
        : [0.85, 1, 1.15].map((k) => warpEdge(ref, radius * k));
      const e0 = eyesMid(ref);
      const scales = ringScales(faces.map((f) => (f ? eyeSpan(f.mesh) : null)));
      const base: number[][] = [];
      let outer0: number[] = [];
      const perFrame: number[] = [];
      faces.forEach((f, i) => {
        if (!f) return;
        const img = frameAt(i);
        const e1 = eyesMid(f.mesh);
        const place = (k: number, dy: number) => (pieces: Point3[][]) =>
          pieces.map((piece) =>
            piece.map(([x, y, z]) => [e1[0] + (x - e0[0]) * k, e1[1] + dy + (y - e0[1]) * k, z] as Point3),
          );
        if (i === first) outer0 = ringLightness(img, rings[rings.length - 1]!);
        const k0 = scales[i]!;
        const at = i === first ? place(1, 0) : register(img, rings[rings.length - 1]!, outer0, k0, place);
        const worst = rings.map((ring0, r) => {
          const ring = at(ring0);
          const e = ringEdge(img, ring);
          if (i === first) base[r] = baseEdge(img, ring);
          // A seam may show on part of the ring only: the worst tenth of its points counts, not the mean.
          return quantile(
            e.map((v, k) => Math.max(0, v - (base[r]![k] ?? v))),
            0.9,
          );
        });
        perFrame.push(Math.max(...worst));
      });
      seam = quantile(perFrame, 0.95);
    }

    const measures: PhotoMeasures = {
      frames: n,
      faceFound: n ? found / n : 0,
      lipSync: sync.r === null ? null : round(sync.r),
      lipLagSec: sync.r === null ? null : round(sync.lag),
      silenceOpen: silenceOpen === null ? null : round(silenceOpen, 3),
      identity: identity === null ? null : round(identity, 3),
      blinks,
      seam: seam === null ? null : round(seam),
    };
    const checks: QualityCheck[] = [];
    const add = (id: string, label: string, ok: boolean, detail: string) =>
      checks.push({ id, label, level: ok ? 'pass' : 'fail', detail });
    add(
      'face-found',
      'Face found on the frames',
      measures.faceFound >= P.minFaceFound,
      `${found} of ${n} sampled frames (${Math.round(measures.faceFound * 100)}%)`,
    );
    const lipOk =
      measures.lipSync !== null &&
      measures.lipSync >= P.minLipSync &&
      (measures.silenceOpen === null || measures.silenceOpen <= P.silenceOpenMax);
    add(
      'lip-sync',
      'Lips follow the voice',
      lipOk,
      measures.lipSync === null
        ? 'the mouth never moved'
        : `correlation ${measures.lipSync} with the voice (mouth ${Math.round((measures.lipLagSec ?? 0) * -1000)} ms ahead); ` +
            (measures.silenceOpen === null ? 'no silence' : `opening in silences ${measures.silenceOpen} above rest`),
    );
    add(
      'identity',
      'Same person as the photo',
      measures.identity !== null && measures.identity >= P.minIdentity,
      measures.identity === null ? 'no face to compare' : `descriptor similarity ${measures.identity} (lowest frame)`,
    );
    const blinkOk =
      blinks.length > 0 &&
      Math.max(...gaps) <= P.maxBlinkGapSec &&
      (inner.length === 0 || Math.min(...inner) >= P.minBlinkGapSec);
    add(
      'blinks',
      'Blinks every 2–6 s',
      blinkOk,
      blinks.length === 0
        ? 'no blink'
        : `${blinks.length} blinks at ${blinks.map((t) => `${t.toFixed(1)} s`).join(', ')}`,
    );
    add(
      'seam',
      'No seam around the moving face',
      measures.seam !== null && measures.seam <= P.maxSeam,
      measures.seam === null ? 'no face to measure' : `edge excess ${measures.seam} (L*) along the warp's edge`,
    );
    return { checks, measures };
  } finally {
    if (frameFile !== null) closeSync(frameFile);
    await rm(dir, { recursive: true, force: true });
  }
}
