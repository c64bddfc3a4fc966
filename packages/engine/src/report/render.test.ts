import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CAPTION_STYLES, type QualityReport } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription, renderActorPortrait } from '../actors/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { compositeProduct } from '../composite/index.ts';
import { rotatedBox } from '../layout/actor-boxes.ts';
import { intersection } from '../layout/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { runProcess } from '../util/process.ts';
import { hardFailures } from './index.ts';

/**
 * Real renders checked by their quality report: a report failing a hard rule is a bug. Scripts are short so the
 * whole file stays around a minute on two cores.
 */

async function productPhoto(file: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect width="480" height="640" fill="#ffffff"/>
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#2d6cd6"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}

/** The share of a box's pixels that are clearly blue (the test product's bottle). */
async function blueShare(png: string, box: { x: number; y: number; w: number; h: number }): Promise<number> {
  const { data, info } = await sharp(png)
    .extract({ left: Math.round(box.x), top: Math.round(box.y), width: Math.round(box.w), height: Math.round(box.h) })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let blue = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i + 2]! > data[i]! + 60 && data[i + 2]! > data[i + 1]! + 30) blue++;
  }
  return blue / (info.width * info.height);
}

/** The rules every render must pass, and the measurements the issue names. */
function expectGoodReport(r: QualityReport, opts: { mouth: boolean }) {
  expect(hardFailures(r)).toEqual([]);
  expect(r.overlaps).toEqual([]);
  expect(r.safe_zone_violations).toEqual([]);
  expect(r.sar).toBe('1:1');
  expect([r.width, r.height]).toEqual([720, 1280]);
  expect(r.integrated_lufs).not.toBeNull();
  expect(Math.abs(r.integrated_lufs! + 14)).toBeLessThanOrEqual(1);
  expect(r.true_peak_dbtp!).toBeLessThanOrEqual(-1);
  expect([r.sample_rate, r.channels]).toEqual([48000, 2]);
  expect(r.av_drift_ms).toBeLessThanOrEqual(40);
  if (opts.mouth) expect(r.mouth?.present).toBe(true);
}

describe('rendered videos pass their quality report', () => {
  let dir: string;
  let cutoutPath: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-report-'));
    await productPhoto(path.join(dir, 'product.png'));
    cutoutPath = (await cutoutProduct({ productPath: path.join(dir, 'product.png'), outDir: dir, useModel: false }))
      .cutoutPath;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('product in hand: a photo already holding the product, with a music bed and an end card', async () => {
    // The merge step's output: the actor photo with the product composited at its placement.
    const actorPath = path.join(dir, 'actor.png');
    await sharp(await renderActorPortrait(actorFromDescription('woman in her 30s', 1))).toFile(actorPath);
    const merged = path.join(dir, 'merged.png');
    const placement = { position_x: 372, position_y: 700, scale: 0.4, rotation: -8 };
    await compositeProduct({ actorPath, productPath: cutoutPath, placement, outPath: merged });
    // An odd-sized still (721x1281) is what used to come out with non-square pixels.
    const odd = path.join(dir, 'merged-odd.png');
    await sharp(merged).resize(721, 1281, { fit: 'fill' }).toFile(odd);
    const music = path.join(dir, 'music.m4a');
    await runProcess('ffmpeg', [
      ...['-y', '-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=2'],
      ...[
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:duration=2',
        '-filter_complex',
        'amix=inputs=2',
        '-c:a',
        'aac',
        music,
      ],
    ]);
    const out = await renderTalkingVideo({
      script: 'This serum changed my mornings. Try it today!',
      hookText: 'My skin before and after',
      language: 'english',
      accent: 'american',
      actor: { kind: 'photo', imagePath: odd, gender: 'female' },
      productFrameBox: rotatedBox(372, 700, 480 * 0.4, 640 * 0.4, -8),
      musicPath: music,
      cta: 'Get 20% off today',
      captionStyle: 'boxed',
      watermark: true,
      workDir: path.join(dir, 'pih'),
    });
    // A still photo has no mouth motion of its own (visemes come with the character rig).
    expectGoodReport(out.report, { mouth: false });
    expect(out.layout.endCard?.product).not.toBeNull();
    expect(out.report.boxes.map((b) => b.name)).toEqual(
      expect.arrayContaining(['face', 'product', 'hook', 'watermark', 'end card CTA', 'caption 1']),
    );
    const sheet = await sharp(out.contactSheetPath).metadata();
    expect([sheet.format, sheet.width, sheet.height]).toEqual(['jpeg', 3 * 180 + 16, 2 * 320 + 12]);
    // The end card's product picture (the blue bottle) is over the card in the last frame, and not yet drawn just
    // before the card begins: it is read once and repeated on the video's ticks from the card's start.
    const card = out.layout.endCard!;
    const blueIn = async (t: number) => {
      const png = path.join(dir, `end-card-${t.toFixed(2)}.png`);
      await runProcess('ffmpeg', [
        '-y',
        '-v',
        'error',
        '-ss',
        t.toFixed(3),
        '-i',
        out.videoPath,
        '-frames:v',
        '1',
        png,
      ]);
      return blueShare(png, card.product!);
    };
    expect(await blueIn(out.durationSec - 0.1)).toBeGreaterThan(0.05);
    expect(await blueIn(card.startSec - 0.2)).toBeLessThan(0.02);
  }, 120_000);

  it('product held low, CTA close-up: no text over the hand holding it, in 9:16, 4:5 and 1:1', async () => {
    // Held at the bottom of the chest, the close-up (zoomed past the punch-in) brings the hand and fingers under
    // the product down to the bottom-left corner, the watermark's first choice.
    const out = await renderTalkingVideo({
      script: 'Stop scrolling. This serum changed my mornings. Try it today!',
      hookText: 'Stop scrolling.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('woman in her 30s', 1) },
      product: { cutoutPath, placement: { position_x: 300, position_y: 860, scale: 0.45, rotation: 0 } },
      captionStyle: 'highlight',
      cta: null,
      watermark: true,
      aspects: ['9:16', '4:5', '1:1'],
      workDir: path.join(dir, 'held-low'),
    });
    const closeUp = out.rig!.shots[out.rig!.shots.length - 1]!;
    expect(closeUp.zoomFrom).toBeGreaterThan(1.6);
    expectGoodReport(out.report, { mouth: true });
    expect(out.layout.hand).not.toBeNull();
    const inCloseUp = out.layout.views.filter((v) => v.t >= closeUp.startSec && v.t < closeUp.endSec);
    expect(inCloseUp.length).toBeGreaterThan(5);
    for (const v of inCloseUp) expect(intersection(out.layout.watermark!.box, v.hand!)).toBeNull();
    expect(out.aspects.map((a) => a.aspect)).toEqual(['4:5', '1:1']);
    for (const a of out.aspects) {
      expect(hardFailures(a.report)).toEqual([]);
      expect(a.report.overlaps).toEqual([]);
      expect(a.layout.watermark).not.toBeNull();
      expect(a.layout.captions.length).toBeGreaterThan(0);
    }
  }, 300_000);

  it('three Hebrew sentences (eSpeak, right to left) with a CTA close-up: the pauses are silences, the report is green', async () => {
    const out = await renderTalkingVideo({
      script: 'הסרום הזה שינה לי את הבקרים. העור שלי זוהר כל היום. נסו אותו היום!',
      hookText: 'הסרום הזה שינה לי את הבקרים.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('young woman', 3) },
      product: { cutoutPath, placement: { position_x: 370, position_y: 700, scale: 0.35, rotation: -6 } },
      captionStyle: 'highlight',
      cta: 'Shop now',
      watermark: true,
      workDir: path.join(dir, 'hebrew'),
    });
    expect(out.layout.rtl).toBe(true);
    // eSpeak pauses about 0.33 s after each sentence; the timings keep those pauses free of words.
    const gaps = out.words.slice(1).map((w, i) => w.startSec - out.words[i]!.endSec);
    expect(gaps.filter((g) => g > 0.25)).toHaveLength(2);
    expectGoodReport(out.report, { mouth: true });
    expect(out.report.checks.every((c) => c.level === 'pass')).toBe(true);
  }, 300_000);

  // The 12 variants of a pack: 4 characters x 3 placements, every caption style, short, very long, accented and
  // right-to-left hooks. The hook is the script of a hook-pack video; eSpeak speaks the Hebrew and Arabic ones.
  const HOOKS = [
    'Wait for it',
    'Nobody talks about this',
    'Crème brûlée skin in three days, garanti !',
    'Größte Überraschung des Jahres für trockene Haut',
    'תפסיקו לגלול עכשיו',
    'توقف عن التمرير الآن',
    'I tried every moisturiser on the shelf for three years and nothing worked until my dermatologist told me about this one change',
    'POV: you finally found it',
    'Three reasons I switched',
    'Ça marche vraiment',
    'Stop scrolling',
    'Dry skin? Watch this',
  ];
  const PLACEMENTS = [
    { position_x: 370, position_y: 700, scale: 0.35, rotation: -6 },
    { position_x: 150, position_y: 720, scale: 0.3, rotation: 8 },
    { position_x: 300, position_y: 860, scale: 0.45, rotation: 0 },
  ];
  it('all 12 variants of a hook pack', async () => {
    const jobs = HOOKS.map((hook, i) => async () => {
      const out = await renderTalkingVideo({
        script: hook,
        hookText: hook,
        language: 'english',
        accent: 'american',
        actor: {
          kind: 'procedural',
          spec: actorFromDescription(['young woman', 'man in his 40s', 'grandmother', 'student'][i % 4]!, i),
        },
        product: { cutoutPath, placement: PLACEMENTS[i % PLACEMENTS.length]! },
        captionStyle: CAPTION_STYLES[i % CAPTION_STYLES.length],
        cta: i % 3 === 0 ? 'Shop now' : null,
        watermark: i % 2 === 0,
        workDir: path.join(dir, `variant-${i + 1}`),
      });
      return { hook, out };
    });
    // Two at a time, like the worker pool.
    const results: Awaited<ReturnType<(typeof jobs)[number]>>[] = [];
    for (let i = 0; i < jobs.length; i += 2) results.push(...(await Promise.all(jobs.slice(i, i + 2).map((j) => j()))));
    for (const { hook, out } of results) {
      expectGoodReport(out.report, { mouth: true });
      expect(out.layout.hook.flatMap((h) => h.lines.join(' ').split(' '))).toEqual(hook.split(' '));
    }
    expect(results.some((r) => r.out.layout.rtl)).toBe(true);
    expect(results.some((r) => r.out.layout.hook.length > 1 || r.out.layout.hook[0]!.lines.length >= 3)).toBe(true);
  }, 900_000);
});
