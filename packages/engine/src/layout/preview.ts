import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaptionStyle } from '@hookreel/contracts';
import { actorFromDescription, renderActorPortrait } from '../actors/index.ts';
import { rigBoxes } from '../actors/rig.ts';
import { FFMPEG, filterPath } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { VIDEO_HEIGHT, VIDEO_WIDTH, type WordTiming } from '../types.ts';
import { actorBoxesInVideo } from './actor-boxes.ts';
import { layoutToAss } from './ass.ts';
import { FONT_DIR } from './font.ts';
import { computeLayout } from './index.ts';

/**
 * A caption style's preview picture, drawn by the same path a render takes: a rig character, the layout module
 * placing the caption, `layoutToAss` and libass burning it in. The picker in the web app shows these (committed
 * under apps/web/public/caption-styles, written by `npm run caption-previews`), so what a user picks is what
 * their video shows.
 */

const SAMPLE = 'My skin glows now. This serum changed everything';
const WORD_SEC = 0.42;

/** Preview size: a 720x640 window of the frame around the caption, scaled down. */
export const PREVIEW_WIDTH = 270;
export const PREVIEW_HEIGHT = 240;
const WINDOW_H = Math.round((VIDEO_WIDTH * PREVIEW_HEIGHT) / PREVIEW_WIDTH);

const sampleWords = (): WordTiming[] =>
  SAMPLE.split(' ').map((word, i) => ({
    word,
    startSec: 0.2 + i * WORD_SEC,
    endSec: 0.2 + i * WORD_SEC + WORD_SEC - 0.06,
  }));

/** Most words first, then most letters: a one-word style shows its longest word. */
const weight = (words: readonly WordTiming[]) => words.length * 100 + words.reduce((n, w) => n + w.word.length, 0);

/** Writes the preview PNG of `style` to `outPath`; returns the moment of the frame and the window's top. */
export async function renderCaptionPreview(
  style: CaptionStyle,
  outPath: string,
): Promise<{ atSec: number; windowY: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hookreel-caption-preview-'));
  try {
    const spec = actorFromDescription('young woman in her 20s with long brown hair in a green hoodie', 0);
    const portrait = path.join(dir, 'portrait.png');
    await writeFile(portrait, await renderActorPortrait(spec, { mouthOpen: true }));
    const words = sampleWords();
    const durationSec = words[words.length - 1]!.endSec + 0.5;
    const layout = computeLayout({
      width: VIDEO_WIDTH,
      height: VIDEO_HEIGHT,
      actor: actorBoxesInVideo(rigBoxes(spec.traits, null)),
      product: null,
      camera: { maxZoom: 1, driftPx: 0 },
      words,
      durationSec,
      hookText: null,
      captionStyle: style,
      watermark: null,
      cta: null,
    });
    // The fullest cue at its second word (or its only word), late in the word so a scaling word has settled.
    const cue = layout.captions.reduce<(typeof layout.captions)[number] | undefined>(
      (best, c) => (!best || weight(c.words) > weight(best.words) ? c : best),
      undefined,
    );
    if (!cue) throw new Error(`The layout placed no caption for the ${style} preview`);
    const word = cue.words[Math.min(1, cue.words.length - 1)]!;
    const atSec = word.startSec + (word.endSec - word.startSec) * 0.8;
    const centre = cue.box.y + cue.box.h / 2;
    const windowY = Math.round(Math.min(VIDEO_HEIGHT - WINDOW_H, Math.max(0, centre - WINDOW_H * 0.55)));
    const ass = path.join(dir, 'captions.ass');
    await writeFile(ass, layoutToAss(layout));
    await runProcess(FFMPEG, [
      '-y',
      '-hide_banner',
      '-v',
      'error',
      '-loop',
      '1',
      '-framerate',
      '30',
      '-t',
      durationSec.toFixed(2),
      '-i',
      portrait,
      '-vf',
      [
        `scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:flags=bicubic,setsar=1`,
        `subtitles='${filterPath(ass)}':fontsdir='${filterPath(FONT_DIR)}'`,
        `crop=${VIDEO_WIDTH}:${WINDOW_H}:0:${windowY}`,
        `scale=${PREVIEW_WIDTH}:${PREVIEW_HEIGHT}:flags=lanczos`,
      ].join(','),
      '-ss',
      atSec.toFixed(3),
      '-frames:v',
      '1',
      outPath,
    ]);
    return { atSec, windowY };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
