import { readFile, rm } from 'node:fs/promises';
import type { QualityCheck } from '@hookreel/contracts';
import { MIN_TEXT_SIZE, sceneEndOf, type TextBlock, type VideoLayout } from '../layout/index.ts';
import type { WordTiming } from '../types.ts';

/**
 * What a person sees of the text (docs/video-design.md#every-frame-shape): is there text on screen while the voice
 * speaks, is the watermark drawn, is the face whole, is any text cut or too small. The first two are measured on
 * the frames the encoder is given: the render taps its own picture before libass draws the text and again as it
 * goes into the encoder (the same frames, the same ffmpeg run, no second decode: decisions 096 and 220), and a
 * text box of the layout "shows text" when enough of its pixels differ between the two. The face and the sizes
 * are read from the layout the video was drawn from, and their checks say so.
 */

/**
 * Samples a second, and the width of the grey pictures compared (a half of a 720 px frame). Sample i is the
 * picture on screen at i / TEXT_FPS: `round=up` makes each sample the last frame shown at or before its time,
 * in the variable-rate picture before the text as in the encoded video.
 */
const TEXT_FPS = 2;
const TEXT_W = 360;
/** A pixel differs when its grey level moved by more than this; a box shows text when this share of it does. */
const INK_LEVEL = 40;
const INK_SHARE = 0.03;

const greyHeight = (layout: Pick<VideoLayout, 'width' | 'height'>) =>
  2 * Math.round((TEXT_W * layout.height) / layout.width / 2);
const greyFilter = (layout: Pick<VideoLayout, 'width' | 'height'>) =>
  `fps=${TEXT_FPS}:round=up,scale=${TEXT_W}:${greyHeight(layout)},format=gray`;

/** The render's tap of its picture before the text is drawn: grey frames at TEXT_FPS into `bareRawPath`. */
export function bareTap(input: { input: string; layout: VideoLayout; bareRawPath: string }): {
  graph: string;
  outputArgs: string[];
} {
  return {
    graph: `${input.input}${greyFilter(input.layout)}[bare]`,
    outputArgs: ['-map', '[bare]', '-f', 'rawvideo', input.bareRawPath],
  };
}

/**
 * The picture as it goes into the encoder, text drawn, at the same times as the bare tap: a branch of the
 * render's report taps (`reportTaps`), written to `drawnRawPath`.
 */
export function drawnTap(label: string, layout: VideoLayout): string {
  return `${label}${greyFilter(layout)}[drawn]`;
}

/** Share of a layout box's pixels (output pixels) that differ between the two grey pictures of sample i. */
export function inkShare(bare: Buffer, drawn: Buffer, i: number, box: TextBlock['box'], layout: VideoLayout): number {
  const gh = greyHeight(layout);
  const s = TEXT_W / layout.width;
  const x0 = Math.max(0, Math.ceil(box.x * s) + 1);
  const y0 = Math.max(0, Math.ceil(box.y * s) + 1);
  const x1 = Math.min(TEXT_W, Math.floor((box.x + box.w) * s) - 1);
  const y1 = Math.min(gh, Math.floor((box.y + box.h) * s) - 1);
  if (x1 <= x0 || y1 <= y0) return 0;
  const base = i * TEXT_W * gh;
  let differ = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const k = base + y * TEXT_W + x;
      if (Math.abs(bare[k]! - drawn[k]!) > INK_LEVEL) differ++;
    }
  return differ / ((x1 - x0) * (y1 - y0));
}

const on = (b: { startSec: number; endSec: number }, t: number) => t >= b.startSec + 0.04 && t < b.endSec - 0.04;

export interface TextMeasures {
  /** Moments of speech sampled, and those with no text seen on the frame. */
  speech: { sampled: number; bare: number[] };
  /** Samples of the watermark's time, and those where it was not seen; null when the video needs none. */
  watermark: { sampled: number; missing: number[] } | null;
}

/** Compares the tapped frames before and after the text is drawn over the layout's text boxes. */
export async function measureText(input: {
  layout: VideoLayout;
  words: readonly WordTiming[];
  bareRawPath: string;
  drawnRawPath: string;
  durationSec: number;
}): Promise<TextMeasures> {
  const { layout } = input;
  const [bare, drawn] = await Promise.all([readFile(input.bareRawPath), readFile(input.drawnRawPath)]);
  await Promise.all([rm(input.bareRawPath, { force: true }), rm(input.drawnRawPath, { force: true })]);
  const size = TEXT_W * greyHeight(layout);
  const n = Math.min(Math.floor(bare.length / size), Math.floor(drawn.length / size));
  const sceneEnd = Math.min(sceneEndOf(layout), input.durationSec);
  const spokenText: TextBlock[] = [...layout.hook, ...layout.captions];
  const seen = (b: TextBlock, i: number) => inkShare(bare, drawn, i, b.box, layout) >= INK_SHARE;
  const speech = { sampled: 0, bare: [] as number[] };
  const wm = layout.watermarkText ? { sampled: 0, missing: [] as number[] } : null;
  for (let i = 0; i < n; i++) {
    const t = i / TEXT_FPS;
    // A moment where a block fades in or out (a hook page's first or last 0.2 s) is a transition, not a sample.
    const fading = spokenText.some(
      (b) => t >= b.startSec - 0.001 && t < b.endSec && (t < b.startSec + 0.2 || t > b.endSec - 0.2),
    );
    if (t < sceneEnd && input.words.some((w) => t >= w.startSec + 0.05 && t <= w.endSec - 0.05)) {
      const up = spokenText.some((b) => on(b, t) && seen(b, i));
      if (up || !fading) speech.sampled++;
      if (!up && !fading) speech.bare.push(t);
    }
    if (wm && layout.watermark && on(layout.watermark, t)) {
      wm.sampled++;
      if (!seen(layout.watermark, i)) wm.missing.push(t);
    }
  }
  if (wm && !layout.watermark) wm.missing.push(0);
  return { speech, watermark: wm };
}

/** The checks of what a person sees of the text and the face; `measured` is null when no frames were tapped. */
export function textChecks(layout: VideoLayout, measured: TextMeasures | null): QualityCheck[] {
  const checks: QualityCheck[] = [];
  const add = (id: string, label: string, level: QualityCheck['level'], detail: string) =>
    checks.push({ id, label, level, detail });
  const times = (ts: number[]) =>
    ts
      .slice(0, 6)
      .map((t) => `${t.toFixed(1)} s`)
      .join(', ') + (ts.length > 6 ? '…' : '');

  // The face: the eyes and the mouth are either wholly in the frame or wholly out of it (a product close-up).
  const cut = layout.faceSeen.filter((f) => f.inside > 0.02 && f.inside < 0.98);
  const opening = layout.faceSeen.filter((f) => f.t < 1);
  const noFaceAtStart = opening.length > 0 && opening.every((f) => f.inside < 0.98);
  add(
    'face-in-frame',
    'Face in the frame (eyes and mouth, from the layout)',
    cut.length || noFaceAtStart ? 'fail' : 'pass',
    cut.length
      ? `face cut by the frame at ${times(cut.map((f) => f.t))}`
      : noFaceAtStart
        ? 'the video does not open on the face'
        : 'eyes and mouth whole in every shot that shows them',
  );

  if (measured) {
    const { speech } = measured;
    add(
      'speech-text',
      'Text on screen while the voice speaks (measured on the frames)',
      speech.bare.length ? 'fail' : 'pass',
      speech.bare.length
        ? `no text seen at ${times(speech.bare)} of speech`
        : `text seen at all ${speech.sampled} moments of speech sampled`,
    );
  }

  // Text whole and large enough: sizes in the working frame's pixels (720 px wide), so every shape has one rule.
  const k = layout.width / 720;
  const blocks: { name: string; block: TextBlock; min: number }[] = [
    ...layout.hook.map((b) => ({ name: 'hook', block: b, min: MIN_TEXT_SIZE.hook })),
    ...layout.captions.map((b) => ({ name: 'caption', block: b, min: MIN_TEXT_SIZE.caption })),
    ...(layout.watermark ? [{ name: 'watermark', block: layout.watermark, min: MIN_TEXT_SIZE.watermark }] : []),
    ...(layout.endCard ? [{ name: 'CTA', block: layout.endCard.cta, min: MIN_TEXT_SIZE.cta }] : []),
  ];
  const small = blocks.filter((b) => b.block.fontSize / k < b.min - 0.01);
  // Every letter given is drawn: the hook's pages together, each caption's lines against its words.
  const cutText = [
    ...(layout.hookText && letters(layout.hook.flatMap((h) => h.lines).join(' ')) !== letters(layout.hookText)
      ? [`hook "${layout.hook.flatMap((h) => h.lines).join(' ')}" cut short`]
      : []),
    ...layout.captions
      .filter((c) => letters(c.lines.join(' ')) !== letters(c.words.map((w) => w.word).join(' ')))
      .map((c) => `caption "${c.lines.join(' ')}" cut short`),
  ];
  const problems = [
    ...small.map((b) => `${b.name} at ${Math.round(b.block.fontSize)} px (under ${Math.ceil(b.min * k)})`),
    ...cutText,
  ];
  add(
    'text-legible',
    'Text whole and readable size (from the layout)',
    problems.length ? 'fail' : 'pass',
    problems.length ? [...new Set(problems)].slice(0, 4).join('; ') : `${blocks.length} text blocks whole, at size`,
  );

  if (layout.watermarkText) {
    const wm = measured?.watermark;
    const level = !layout.watermark || (wm && wm.missing.length) ? 'fail' : 'pass';
    add(
      'watermark',
      measured ? 'Watermark on the trial video (measured on the frames)' : 'Watermark on the trial video',
      level,
      !layout.watermark
        ? 'no place found for the watermark'
        : wm?.missing.length
          ? `watermark not seen at ${times(wm.missing)}`
          : wm
            ? `seen in all ${wm.sampled} frames sampled`
            : 'placed for the whole video',
    );
  }
  return checks;
}

/** Letters and digits only: how drawn text is compared with the text given (line breaks and hyphens aside). */
const letters = (s: string): string => s.normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, '');
