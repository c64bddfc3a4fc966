import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WordTiming } from '../types.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { actorBoxesInVideo } from './actor-boxes.ts';
import { layoutToAss } from './ass.ts';
import { FONT_DIR } from './font.ts';
import { computeLayout } from './index.ts';

const W = 720;
const H = 1280;
const escape = (p: string) => p.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");

/** x range of the highlight-yellow pixels (#FFD23F) in the caption's rows. */
async function yellowSpan(file: string, y0: number, y1: number): Promise<[number, number]> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let lo = Infinity;
  let hi = -Infinity;
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (data[i]! > 230 && data[i + 1]! > 180 && data[i + 1]! < 230 && data[i + 2]! < 110) {
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
    }
  return [lo, hi];
}

describe('right-to-left captions as libass draws them', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rtl-render-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a highlighted Hebrew line reads right to left: its first word is drawn at the right end', async () => {
    const text = ['הסרום', 'הזה', 'שינה', 'לי.'];
    const words: WordTiming[] = text.map((word, i) => ({ word, startSec: 0.2 + i * 0.4, endSec: 0.5 + i * 0.4 }));
    const layout = computeLayout({
      width: W,
      height: H,
      actor: actorBoxesInVideo(),
      product: null,
      camera: { maxZoom: 1, driftPx: 0 },
      words,
      durationSec: 2.5,
      hookText: null,
      captionStyle: 'highlight',
      watermark: null,
      cta: null,
    });
    expect(layout.rtl).toBe(true);
    const cue = layout.captions[0]!;
    expect(cue.words.map((w) => w.word)).toEqual(text);
    const ass = path.join(dir, 'captions.ass');
    await writeFile(ass, layoutToAss(layout));
    const frame = (t: number) => path.join(dir, `at-${t}.png`);
    for (const t of [0.35, 1.55]) {
      await runProcess(FFMPEG, [
        ...['-y', '-v', 'error', '-f', 'lavfi', '-i', `color=c=0x405060:s=${W}x${H}:d=2.5`],
        ...['-vf', `subtitles='${escape(ass)}':fontsdir='${escape(FONT_DIR)}'`],
        ...['-ss', String(t), '-frames:v', '1', frame(t)],
      ]);
    }
    const rows: [number, number] = [cue.box.y, cue.box.y + cue.box.h];
    const first = await yellowSpan(frame(0.35), ...rows);
    const last = await yellowSpan(frame(1.55), ...rows);
    // The first spoken word lights up at the right, the last one at the left.
    expect(first[0]).toBeGreaterThan(last[1]);
    expect(first[1]).toBeGreaterThan(cue.box.x + cue.box.w / 2);
  }, 60_000);
});
