import { readFile, rm } from 'node:fs/promises';
import type { PhotoFace, QualityCheck, QualityReport } from '@hookreel/contracts';
import { checkLayout, sceneEndOf, textElements, type VideoLayout } from '../layout/index.ts';
import type { WordTiming } from '../types.ts';
import { parseEbur128 } from './ebur128.ts';
import { mp4Facts, type Mp4Facts } from './mp4.ts';
import { meterLoudness } from './meter.ts';
import { photoActorChecks } from './photo.ts';
import { productMatteCheck } from './matte.ts';
import { drawnTap, measureText, textChecks } from './text.ts';
export { bareTap } from './text.ts';
import type { Point3 } from '../photo/landmarks.ts';
export { PHOTO_CHECKS, photoActorChecks, warpEdge, type PhotoMeasures } from './photo.ts';

/** The grey picture sampled for lip motion (a quarter of a 720 px frame's width, the frame's shape), how often, and the patch size. */
const GREY_W = 180;
/** Height of the grey picture and of a contact-sheet frame for a frame shape (180 wide; 320 for 9:16). */
const thumbHeight = (layout: Pick<VideoLayout, 'width' | 'height'>) =>
  2 * Math.round((GREY_W * layout.height) / layout.width / 2);
const MOUTH_FPS = 15;
const PATCH_W = 24;
const PATCH_H = 16;
export { parseEbur128 };
export const CONTACT_SHEET = { columns: 3, rows: 2, thumbWidth: 180, thumbHeight: 320 } as const;

/**
 * The pictures and samples the report needs, taken from the frames on their way to the encoder (a branch of the
 * render's own filter graph), so the finished video is never decoded again: the 6-frame contact sheet, the
 * poster, and a small grey picture of every frame at 15 fps (for lip motion). `graph` reads the frames from
 * `input` (a filter link label); `outputArgs` go after the video's own output (decision 096).
 */
export function reportTaps(input: {
  input: string;
  layout: VideoLayout;
  durationSec: number;
  posterPath: string;
  contactSheetPath: string;
  mouthRawPath: string;
  /** With the text check: where the picture going into the encoder is tapped at its sample rate (text.ts). */
  drawnRawPath?: string | null;
}): { graph: string; outputArgs: string[] } {
  const step = input.durationSec / 6;
  const sheetStart = Math.min(0.35, step / 2);
  const posterAt = posterTime(input.layout, input.durationSec);
  const drawn = input.drawnRawPath ?? null;
  const graph = [
    `${input.input}split=${drawn ? 4 : 3}[s][p][m]${drawn ? '[t]' : ''}`,
    `[s]select='gte(t,${sheetStart.toFixed(3)})*(isnan(prev_selected_t)+gte(t-prev_selected_t,${(step * 0.98).toFixed(3)}))',` +
      `scale=${CONTACT_SHEET.thumbWidth}:${thumbHeight(input.layout)},tile=${CONTACT_SHEET.columns}x${CONTACT_SHEET.rows}:padding=4:margin=4:color=white[sheet]`,
    // One frame only: frames after it would still be converted for a JPEG that is already written.
    `[p]select='isnan(prev_selected_t)*gte(t,${posterAt.toFixed(3)})',setsar=1[poster]`,
    // Only the part of the grey picture where the mouth can be is made: the same pixels of it, at a tenth of
    // the cost of shrinking and converting the whole frame (decision 099).
    `[m]fps=${MOUTH_FPS},${mouthTap(input.layout)},format=gray[mouth]`,
    ...(drawn ? [drawnTap('[t]', input.layout)] : []),
  ].join(';');
  const outputArgs = [
    ...['-map', '[sheet]', '-frames:v', '1', '-q:v', '4', input.contactSheetPath],
    ...['-map', '[poster]', '-frames:v', '1', '-q:v', '3', input.posterPath],
    ...['-map', '[mouth]', '-f', 'rawvideo', input.mouthRawPath],
    ...(drawn ? ['-map', '[drawn]', '-f', 'rawvideo', drawn] : []),
  ];
  return { graph, outputArgs };
}

export interface AnalyseInput {
  videoPath: string;
  layout: VideoLayout;
  words: readonly WordTiming[];
  /** The grey 15 fps frames written by the render's `reportTaps` (removed once read). */
  mouthRawPath: string;
  /** The picture before its text, tapped by the render's `bareTap` (removed once read); the text is measured on it. */
  bareRawPath?: string | null;
  /** The same picture with its text, as the encoder got it (`reportTaps`' `drawnRawPath`, removed once read). */
  drawnRawPath?: string | null;
  /**
   * A photo actor: its face as stored with the avatar. The face is then detected on frames of the finished video
   * and the photo checks (lip sync, identity, face found, blinks, seam; report/photo.ts) join the report.
   */
  photo?: {
    face: PhotoFace;
    warpRadius?: number;
    /** The animation's edge of its warped region from a frame's points (photoActorChecks' `edge`). */
    edge?: (points: readonly Point3[]) => Point3[][];
  } | null;
  /** The product cut-out the render composited (report/matte.ts); null or absent when none was. */
  productCutoutPath?: string | null;
  signal?: AbortSignal;
}

/**
 * Measures a finished video: stream facts (size, SAR, rates, A/V drift) from its MP4 boxes, the sound through
 * FFmpeg's EBU R128 meter on the MP4's own AAC track (integrated loudness, true peak; report/meter.ts), lip motion
 * from the grey frames the render tapped, and the geometric rules from the layout the video was drawn from
 * (docs/video-design.md#quality-report).
 */
export async function analyseVideo(input: AnalyseInput): Promise<QualityReport> {
  const probe = await probeStreams(input.videoPath);
  const { layout } = input;
  const loud = await meterLoudness(input.videoPath, input.signal);
  const mouthFrames = await readFile(input.mouthRawPath);
  await rm(input.mouthRawPath, { force: true });
  const patches = mouthPatches(mouthFrames, layout);
  const mouth = mouthMotion(
    patches.frames,
    PATCH_W * PATCH_H,
    input.words,
    Math.min(sceneEndOf(layout), probe.duration),
    patches.visible,
  );
  const report = buildReport({ probe, loud, mouth, layout });
  const text =
    input.bareRawPath && input.drawnRawPath
      ? await measureText({
          layout,
          words: input.words,
          bareRawPath: input.bareRawPath,
          drawnRawPath: input.drawnRawPath,
          durationSec: probe.duration,
        })
      : null;
  // Before the duration line, which stays last.
  report.checks.splice(Math.max(0, report.checks.length - 1), 0, ...textChecks(layout, text));
  if (input.photo) {
    const photo = await photoActorChecks({
      videoPath: input.videoPath,
      face: input.photo.face,
      warpRadius: input.photo.warpRadius,
      edge: input.photo.edge,
      words: input.words,
      sceneEndSec: Math.min(sceneEndOf(layout), probe.duration),
      signal: input.signal,
    });
    // Before the duration line, which stays last.
    report.checks.splice(Math.max(0, report.checks.length - 1), 0, ...photo.checks);
  }
  if (input.productCutoutPath) {
    report.checks.splice(Math.max(0, report.checks.length - 1), 0, await productMatteCheck(input.productCutoutPath));
  }
  return report;
}

/** Whether the middle of a box is inside the picture. */
const inPicture = (m: { x: number; y: number; w: number; h: number }, layout: Pick<VideoLayout, 'width' | 'height'>) =>
  m.y + m.h / 2 >= 0 && m.y + m.h / 2 <= layout.height && m.x + m.w / 2 >= 0 && m.x + m.w / 2 <= layout.width;

/**
 * Where in the grey picture (GREY_W wide, thumbHeight tall) the mouth can be during the video: around every view
 * of the mouth box, with two grey pixels to spare so the shrinking filter sees the same neighbours as in the
 * whole picture. Also the frame's crop that becomes that part (even offsets and sizes, for yuv420p).
 */
export function mouthRegion(layout: VideoLayout): {
  grey: { x: number; y: number; w: number; h: number };
  crop: { x: number; y: number; w: number; h: number };
} {
  const GREY_H = thumbHeight(layout);
  const fx = layout.width / GREY_W;
  const fy = layout.height / GREY_H;
  // Views with the mouth out of the picture give no sample (mouthPatches marks them), so they need no pixels.
  const boxes = [
    layout.mouth,
    ...layout.views.flatMap((v) => (v.mouth && inPicture(v.mouth, layout) ? [v.mouth] : [])),
  ];
  const MARGIN = 2;
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max, v));
  const even = (v: number) => 2 * Math.floor(v / 2);
  // Even grey offsets keep the crop's offsets even for any whole factor (4 on a 720 px wide frame).
  const gx0 = even(clamp(Math.floor(Math.min(...boxes.map((b) => b.x)) / fx) - MARGIN, GREY_W));
  const gy0 = even(clamp(Math.floor(Math.min(...boxes.map((b) => b.y)) / fy) - MARGIN, GREY_H));
  const gx1 = clamp(Math.ceil(Math.max(...boxes.map((b) => b.x + b.w)) / fx) + MARGIN, GREY_W);
  const gy1 = clamp(Math.ceil(Math.max(...boxes.map((b) => b.y + b.h)) / fy) + MARGIN, GREY_H);
  const gw = Math.max(2, even(gx1 - gx0 + 1));
  const gh = Math.max(2, even(gy1 - gy0 + 1));
  const cx = even(gx0 * fx);
  const cy = even(gy0 * fy);
  const crop = {
    x: cx,
    y: cy,
    w: Math.min(even(layout.width) - cx, even(gw * fx)),
    h: Math.min(even(layout.height) - cy, even(gh * fy)),
  };
  return { grey: { x: gx0, y: gy0, w: Math.min(gw, GREY_W - gx0), h: Math.min(gh, GREY_H - gy0) }, crop };
}

/** The filters that make the mouth part of the grey picture from a frame (before `format=gray`). */
export function mouthTap(layout: VideoLayout): string {
  const { grey, crop } = mouthRegion(layout);
  return `crop=${crop.w}:${crop.h}:${crop.x}:${crop.y},scale=${grey.w}:${grey.h}`;
}

/**
 * The mouth patch of every sampled frame, where the mouth is at that moment: a camera that zooms and cuts moves
 * the mouth, so the patch follows the layout's views of it (else the still mouth box), resampled to 24x16.
 * `grey` holds the mouth part of the grey picture only (`mouthRegion`).
 */
function mouthPatches(grey: Buffer, layout: VideoLayout): { frames: Buffer; visible: boolean[] } {
  const GREY_H = thumbHeight(layout);
  const region = mouthRegion(layout).grey;
  const size = region.w * region.h;
  const n = Math.floor(grey.length / size);
  const out = Buffer.alloc(n * PATCH_W * PATCH_H);
  const visible: boolean[] = [];
  const sx = GREY_W / layout.width;
  const sy = GREY_H / layout.height;
  for (let i = 0; i < n; i++) {
    const t = i / MOUTH_FPS;
    const view = layout.views.length
      ? layout.views.reduce((a, b) => (Math.abs(b.t - t) < Math.abs(a.t - t) ? b : a))
      : null;
    const m = view?.mouth ?? layout.mouth;
    // A close-up framed below the chin leaves the mouth out of the picture: that patch would be the frame's
    // edge, still while words are spoken, so it is not a sample of the mouth.
    visible.push(inPicture(m, layout));
    for (let py = 0; py < PATCH_H; py++)
      for (let px = 0; px < PATCH_W; px++) {
        const x = Math.min(GREY_W - 1, Math.max(0, Math.floor((m.x + ((px + 0.5) * m.w) / PATCH_W) * sx)));
        const y = Math.min(GREY_H - 1, Math.max(0, Math.floor((m.y + ((py + 0.5) * m.h) / PATCH_H) * sy)));
        const rx = Math.min(region.w - 1, Math.max(0, x - region.x));
        const ry = Math.min(region.h - 1, Math.max(0, y - region.y));
        out[i * PATCH_W * PATCH_H + py * PATCH_W + px] = grey[i * size + ry * region.w + rx]!;
      }
  }
  return { frames: out, visible };
}

/** The poster shows the hook sticker fully in (mid-way through its first page), else the first second. */
function posterTime(layout: VideoLayout, duration: number): number {
  const h = layout.hook[0];
  const t = h ? (h.startSec + h.endSec) / 2 : 1;
  return Math.max(0, Math.min(duration - 0.1, t));
}

/** The stream facts the report checks: the MP4's, with its two streams' ends compared. */
type Probe = Omit<Mp4Facts, 'video' | 'audio'> & { avDriftMs: number };

/** Stream facts from the MP4's own boxes (no ffprobe run: decision 150). */
async function probeStreams(file: string): Promise<Probe> {
  const f = await mp4Facts(file);
  const { video: v, audio: a } = f;
  return {
    width: f.width,
    height: f.height,
    sar: f.sar,
    duration: f.duration,
    sampleRate: f.sampleRate,
    channels: f.channels,
    avDriftMs: v && a ? Math.round(Math.abs(v.end - a.end) * 1000) : 0,
  };
}

/**
 * Mean absolute change of the mouth patch between consecutive samples, split by whether a word is being spoken
 * at that moment or the voice is silent (well away from any word). Motion is "present" when the mouth changes
 * clearly more while speaking than in silence.
 */
export function mouthMotion(
  frames: Buffer,
  size: number,
  words: readonly WordTiming[],
  sceneEndSec: number,
  /** Per sample, whether the mouth was in the picture; pairs with a sample outside it are left out. */
  visible?: readonly boolean[],
): { speech_motion: number; silence_motion: number; present: boolean } | null {
  const n = Math.floor(frames.length / size);
  const speech: number[] = [];
  const silence: number[] = [];
  for (let i = 1; i < n; i++) {
    const t = (i - 0.5) / MOUTH_FPS;
    if (t >= sceneEndSec) break;
    if (visible && (!visible[i] || !visible[i - 1])) continue;
    let sum = 0;
    for (let k = 0; k < size; k++) sum += Math.abs(frames[i * size + k]! - frames[(i - 1) * size + k]!);
    const d = sum / size;
    if (words.some((w) => t >= w.startSec && t <= w.endSec)) speech.push(d);
    else if (words.every((w) => t < w.startSec - 0.15 || t > w.endSec + 0.15)) silence.push(d);
  }
  if (speech.length === 0) return null;
  // Trimmed means (largest tenth dropped): a camera cut changes the whole patch for one frame, which must not
  // count as lip motion, while visemes change the mouth on many but not all frames.
  const trimmed = (xs: number[]) => {
    if (!xs.length) return 0;
    const kept = [...xs].sort((x, y) => x - y).slice(0, Math.max(1, Math.ceil(xs.length * 0.9)));
    return kept.reduce((a, b) => a + b, 0) / kept.length;
  };
  const sp = trimmed(speech);
  const si = trimmed(silence);
  return { speech_motion: round(sp), silence_motion: round(si), present: sp > 1 && sp > 2 * si + 0.3 };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function buildReport(input: {
  probe: Probe;
  loud: { integrated: number | null; truePeak: number | null };
  mouth: QualityReport['mouth'];
  layout: VideoLayout;
}): QualityReport {
  const { probe, loud, mouth, layout } = input;
  const v = checkLayout(layout);
  const checks: QualityCheck[] = [];
  const add = (id: string, label: string, level: QualityCheck['level'], detail: string) =>
    checks.push({ id, label, level, detail });

  // The layout is in the output's pixels: 720x1280 for 9:16, the shape's size for the others.
  const sizeOk = probe.width === layout.width && probe.height === layout.height;
  add('size', 'Frame size', sizeOk ? 'pass' : 'fail', `${probe.width}x${probe.height}`);
  add('sar', 'Square pixels', probe.sar === '1:1' ? 'pass' : 'fail', `SAR ${probe.sar}`);
  // Text the frame left no free place for may sit over the product or the hand (never the face): a compromise a
  // person should look at, shown amber; any other overlap is a broken rule.
  const covers = (os: typeof v.overlaps) => os.map((o) => `${o.text} covers the ${o.covers}`).join('; ');
  add(
    'overlap',
    'Text clear of face and product',
    v.overlaps.length ? 'fail' : v.compromises.length ? 'warn' : 'pass',
    v.overlaps.length
      ? covers(v.overlaps)
      : v.compromises.length
        ? `no free place in this frame: ${covers(v.compromises)}`
        : 'no overlap',
  );
  add(
    'safe-zone',
    'Text inside the safe zone',
    v.outsideSafe.length === 0 ? 'pass' : 'fail',
    v.outsideSafe.length === 0 ? 'all text inside' : v.outsideSafe.map((o) => o.name).join(', '),
  );
  add(
    'hook-captions',
    'Captions do not repeat the hook',
    v.captionsDuringHook === 0 ? 'pass' : 'fail',
    v.captionsDuringHook === 0
      ? 'captions start when the hook leaves'
      : `${v.captionsDuringHook} captions under the hook`,
  );
  const i = loud.integrated;
  add(
    'loudness',
    'Loudness −14 LUFS',
    i === null ? 'fail' : Math.abs(i + 14) <= 1 ? 'pass' : Math.abs(i + 14) <= 2 ? 'warn' : 'fail',
    i === null ? 'no sound measured' : `${i.toFixed(1)} LUFS integrated`,
  );
  const tp = loud.truePeak;
  add(
    'true-peak',
    'True peak ≤ −1 dBTP',
    tp !== null && tp <= -1 ? 'pass' : 'fail',
    tp === null ? 'no sound measured' : `${tp.toFixed(1)} dBTP`,
  );
  const audioOk = probe.sampleRate === 48000 && probe.channels === 2;
  add(
    'audio-format',
    'Audio 48 kHz stereo',
    audioOk ? 'pass' : 'fail',
    `${probe.sampleRate ?? '?'} Hz, ${probe.channels ?? '?'} ch`,
  );
  add(
    'av-drift',
    'Sound in sync with picture',
    probe.avDriftMs <= 40 ? 'pass' : probe.avDriftMs <= 100 ? 'warn' : 'fail',
    `${probe.avDriftMs} ms between stream ends`,
  );
  if (mouth) {
    add(
      'mouth',
      'Mouth moves with the voice',
      mouth.present ? 'pass' : 'warn',
      `change ${mouth.speech_motion} while speaking, ${mouth.silence_motion} in silence`,
    );
  }
  add('duration', 'Duration', probe.duration > 0 ? 'pass' : 'fail', `${probe.duration.toFixed(2)} s`);

  const sceneEnd = Math.min(sceneEndOf(layout), probe.duration);
  const boxes = [
    { name: 'face', box: layout.face, start_sec: 0, end_sec: sceneEnd },
    { name: 'mouth', box: layout.mouth, start_sec: 0, end_sec: sceneEnd },
    { name: 'body', box: layout.body, start_sec: 0, end_sec: sceneEnd },
    ...(layout.product ? [{ name: 'product', box: layout.product, start_sec: 0, end_sec: sceneEnd }] : []),
    ...(layout.endCard?.product
      ? [
          {
            name: 'end card product',
            box: layout.endCard.product,
            start_sec: layout.endCard.startSec,
            end_sec: layout.endCard.endSec,
          },
        ]
      : []),
    ...textElements(layout).map((t) => ({ name: t.name, box: t.box, start_sec: t.startSec, end_sec: t.endSec })),
  ].map((b) => ({ ...b, box: roundBox(b.box) }));

  return {
    version: 1,
    width: probe.width,
    height: probe.height,
    sar: probe.sar,
    duration_sec: round(probe.duration),
    integrated_lufs: i,
    true_peak_dbtp: tp,
    sample_rate: probe.sampleRate,
    channels: probe.channels,
    av_drift_ms: probe.avDriftMs,
    boxes,
    overlaps: [...v.overlaps, ...v.compromises],
    safe_zone_violations: v.outsideSafe.map((o) => ({ name: o.name, box: roundBox(o.box) })),
    mouth,
    checks,
  };
}

const roundBox = (b: { x: number; y: number; w: number; h: number }) => ({
  x: Math.round(b.x),
  y: Math.round(b.y),
  w: Math.round(b.w),
  h: Math.round(b.h),
});

/** The checks a render must never fail (render tests assert none of these is 'fail'). */
export const hardFailures = (report: QualityReport): QualityCheck[] => report.checks.filter((c) => c.level === 'fail');
