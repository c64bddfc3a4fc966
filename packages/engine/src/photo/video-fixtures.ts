import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cameraFilter, type CameraShot } from '../motion/timeline.ts';
import type { WordTiming } from '../types.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { pcmWav } from '../util/wav.ts';
import { portraitFixture } from './fixtures.ts';

/**
 * Synthetic photo-actor videos for testing the report's face checks without the real animation: the astronaut
 * portrait in a 450x800 frame with a buzzing "voice" in syllables, and the mouth opened by a crude jaw drop
 * that follows the voice. Test fixtures only; the product's animation is the engine's photo actor.
 *
 * - 'still': the photo never moves (lip sync, blinks fail);
 * - 'talking': the jaw drops with the voice, displacement fading smoothly to nothing at a ring around the lower
 *   face, and the lids close for 3 frames every ~3.4 s;
 * - 'talking-seam': the same jaw drop without the fade (the whole region moves): a seam along the region's edge;
 * - 'talking-late': the mouth moves 0.4 s after the voice (out of sync);
 * - 'talking-push' and 'talking-seam-push': 'talking' and 'talking-seam' filmed by the render's camera filter
 *   pushing in (zoom 1 to 1.2 over 0.5–2.5 s), holding the close shot and cutting back wide at 5 s.
 */
export type PhotoVideoKind =
  'still' | 'talking' | 'talking-seam' | 'talking-late' | 'talking-push' | 'talking-seam-push';

export const PHOTO_VIDEO = { width: 450, height: 800, fps: 25 } as const;
/** Where the 800 px portrait's 450 px copy sits in the frame. */
const SCALE = 450 / 800;
const TOP = 150;
/** Measured on the 800 px portrait (photo/fixtures.ts), mapped into the frame. */
const at = (x: number, y: number) => ({ x: x * SCALE, y: y * SCALE + TOP });
const LIP_LINE = at(317, 375); // the lower inner lip (mesh point 14), where the jaw parts from the teeth
const MOUTH_HALF_W = 50 * SCALE;
/** The warped region: the ellipse the report's seam check watches (0.58 of the 259 px face length). */
const JAW = { rx: 150 * SCALE, ry: 150 * SCALE };
const EYES = [at(274.5, 253), at(376, 258.5)];
const EYE_R = { rx: 28 * SCALE, ry: 13 * SCALE };
const MAX_DROP = 16; // px in the frame at full voice
const LEVELS = 7;

/** Spoken spans (s) of the fake voice and its syllables at 3 per second. */
const SPANS = [
  [0.4, 2.6],
  [3.3, 5.6],
  [6.2, 7.4],
] as const;
export const PHOTO_VIDEO_SEC = 8;

/** The push-in of the '-push' kinds, in the fixture's own pixels. */
const PUSH: CameraShot[] = [
  { startSec: 0, endSec: 0.5, zoomFrom: 1, zoomTo: 1, cx: 225, cy: 400 },
  { startSec: 0.5, endSec: 2.5, zoomFrom: 1, zoomTo: 1.2, cx: 225, cy: 360 },
  { startSec: 2.5, endSec: 5, zoomFrom: 1.2, zoomTo: 1.2, cx: 225, cy: 360 },
  { startSec: 5, endSec: PHOTO_VIDEO_SEC, zoomFrom: 1, zoomTo: 1, cx: 225, cy: 400 },
];

/** Voice loudness 0..1 at time t: syllable bumps inside the spans, silence outside. */
function voiceAt(t: number): number {
  for (const [a, b] of SPANS)
    if (t >= a && t <= b) {
      const s = Math.sin((Math.PI * (t - a) * 3) % Math.PI);
      return Math.max(0, s) ** 1.5;
    }
  return 0;
}

/** The words the fake voice "says": one per span, for the report's silences. */
export const PHOTO_VIDEO_WORDS: WordTiming[] = SPANS.map(([a, b], i) => ({
  word: `span${i + 1}`,
  startSec: a,
  endSec: b,
}));

async function baseFrame(): Promise<Buffer> {
  const portrait = await sharp(await portraitFixture('portrait'))
    .resize(450, 450)
    .png()
    .toBuffer();
  return sharp({ create: { width: 450, height: 800, channels: 3, background: '#7d8a96' } })
    .composite([{ input: portrait, left: 0, top: TOP }])
    .removeAlpha()
    .raw()
    .toBuffer();
}

function cheek(base: Buffer): [number, number, number] {
  const p = at(235, 301);
  const i = (Math.round(p.y) * 450 + Math.round(p.x)) * 3;
  return [base[i]!, base[i + 1]!, base[i + 2]!];
}

/** One frame: the jaw dropped by `drop` px (smooth or hard-edged) and the lids closed or not. */
function frame(base: Buffer, drop: number, hard: boolean, blink: boolean): Buffer {
  const W = 450;
  const out = Buffer.from(base);
  if (drop > 0) {
    for (let y = Math.floor(LIP_LINE.y); y < LIP_LINE.y + JAW.ry; y++)
      for (let x = Math.floor(LIP_LINE.x - JAW.rx); x < LIP_LINE.x + JAW.rx; x++) {
        const dx = (x - LIP_LINE.x) / JAW.rx;
        const dy = (y - LIP_LINE.y) / JAW.ry;
        const r = Math.hypot(dx, dy);
        if (r >= 1) continue;
        // Smooth: full drop at the mouth, fading to 0 at the circle and, beside the mouth, at the lip line.
        // Hard: the whole half-disc drops, a step along its edge.
        const beside = Math.abs(x - LIP_LINE.x) > MOUTH_HALF_W;
        const ramp = beside ? Math.min(1, (y - LIP_LINE.y) / (0.35 * JAW.ry)) : 1;
        const w = hard ? 1 : Math.cos((Math.min(1, r) * Math.PI) / 2) ** 2 * ramp * ramp * (3 - 2 * ramp);
        const d = drop * w;
        const srcY = y - d;
        const i = (y * W + x) * 3;
        const inMouth = Math.abs(x - LIP_LINE.x) < MOUTH_HALF_W * (1 - ((y - LIP_LINE.y) / (d + 1)) ** 2 * 0.3);
        if (srcY < LIP_LINE.y && inMouth) {
          // Between the parted lips: the mouth's dark inside.
          out[i] = 52;
          out[i + 1] = 24;
          out[i + 2] = 26;
          continue;
        }
        const sy = Math.max(0, Math.round(srcY));
        const j = (sy * W + x) * 3;
        out[i] = base[j]!;
        out[i + 1] = base[j + 1]!;
        out[i + 2] = base[j + 2]!;
      }
  }
  if (blink) {
    const [r, g, b] = cheek(base);
    for (const e of EYES)
      for (let y = Math.floor(e.y - EYE_R.ry); y <= e.y + EYE_R.ry; y++)
        for (let x = Math.floor(e.x - EYE_R.rx); x <= e.x + EYE_R.rx; x++) {
          const q = ((x - e.x) / EYE_R.rx) ** 2 + ((y - e.y) / EYE_R.ry) ** 2;
          if (q > 1) continue;
          const a = q < 0.6 ? 1 : (1 - q) / 0.4;
          const i = (y * W + x) * 3;
          out[i] = Math.round(out[i]! * (1 - a) + r * a);
          out[i + 1] = Math.round(out[i + 1]! * (1 - a) + g * a);
          out[i + 2] = Math.round(out[i + 2]! * (1 - a) + b * a);
        }
  }
  return out;
}

/** Writes a synthetic photo-actor MP4 (H.264 + AAC, 450x800, 25 fps, 8 s) and returns its voice's words. */
export async function photoActorVideo(outPath: string, kind: PhotoVideoKind): Promise<{ words: WordTiming[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-photo-video-'));
  try {
    const base = await baseFrame();
    const hard = kind === 'talking-seam' || kind === 'talking-seam-push';
    const push = kind.endsWith('-push');
    const lag = kind === 'talking-late' ? 0.4 : 0;
    const files = new Map<string, string>();
    const lines: string[] = [];
    const n = PHOTO_VIDEO_SEC * PHOTO_VIDEO.fps;
    for (let f = 0; f < n; f++) {
      const t = f / PHOTO_VIDEO.fps;
      // The mouth leads its sound a little, as a speaker's does.
      const level = kind === 'still' ? 0 : Math.round(voiceAt(t + 0.04 - lag) * (LEVELS - 1));
      const blink = kind !== 'still' && t % 3.4 > 1.5 && t % 3.4 < 1.5 + 3 / PHOTO_VIDEO.fps;
      const key = `${level}-${blink ? 1 : 0}`;
      let file = files.get(key);
      if (!file) {
        file = path.join(dir, `f${key}.png`);
        const raw = frame(base, (level / (LEVELS - 1)) * MAX_DROP, hard, blink);
        await sharp(raw, { raw: { width: 450, height: 800, channels: 3 } })
          .png({ compressionLevel: 1 })
          .toFile(file);
        files.set(key, file);
      }
      lines.push(`file '${file}'`, `duration ${(1 / PHOTO_VIDEO.fps).toFixed(4)}`);
    }
    lines.push(`file '${files.values().next().value}'`);
    const list = path.join(dir, 'frames.txt');
    await writeFile(list, lines.join('\n'));
    // The "voice": a 140 Hz buzz with harmonics, shaped by the syllable envelope.
    const rate = 16000;
    const samples = new Int16Array(PHOTO_VIDEO_SEC * rate);
    for (let i = 0; i < samples.length; i++) {
      const t = i / rate;
      const buzz =
        Math.sin(2 * Math.PI * 140 * t) + 0.5 * Math.sin(2 * Math.PI * 280 * t) + 0.3 * Math.sin(2 * Math.PI * 420 * t);
      samples[i] = Math.round(9000 * voiceAt(t) * buzz);
    }
    const wav = path.join(dir, 'voice.wav');
    await writeFile(wav, pcmWav(samples, rate));
    await runProcess(
      FFMPEG,
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-i', wav],
        ...(push ? ['-vf', cameraFilter(PUSH, PHOTO_VIDEO.width, PHOTO_VIDEO.height, PHOTO_VIDEO.width)] : []),
        ...['-r', String(PHOTO_VIDEO.fps), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20'],
        ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ar', '48000', '-ac', '2', '-t', String(PHOTO_VIDEO_SEC)],
        outPath,
      ],
      { timeoutMs: 120_000 },
    );
    return { words: PHOTO_VIDEO_WORDS };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
