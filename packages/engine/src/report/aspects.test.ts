import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ASPECT_SIZES, type Aspect, type QualityReport } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription, renderActorPortrait } from '../actors/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { compositeProduct } from '../composite/index.ts';
import { rotatedBox } from '../layout/actor-boxes.ts';
import { renderTalkingVideo, type TalkingVideoOutput } from '../pipeline.ts';
import { FFPROBE } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { hardFailures } from './index.ts';

/**
 * Every frame shape of one render (docs/video-design.md#aspects): the 4:5 and 1:1 exports are re-composed from
 * the 9:16 master and each passes its own quality report at its own size. Short scripts: two renders of three
 * shapes each.
 */

async function productPhoto(file: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect width="480" height="640" fill="#ffffff"/>
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#2d6cd6"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}

async function probeSize(file: string): Promise<{ width: number; height: number; sar: string }> {
  const { stdout } = await runProcess(FFPROBE, [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,sample_aspect_ratio'],
    ...['-of', 'json', file],
  ]);
  const s = (JSON.parse(stdout) as { streams: { width: number; height: number; sample_aspect_ratio?: string }[] })
    .streams[0]!;
  return { width: s.width, height: s.height, sar: s.sample_aspect_ratio ?? '1:1' };
}

function expectGoodReport(r: QualityReport, aspect: Aspect) {
  expect(hardFailures(r)).toEqual([]);
  expect(r.overlaps).toEqual([]);
  expect(r.safe_zone_violations).toEqual([]);
  expect([r.width, r.height]).toEqual([ASPECT_SIZES[aspect].width, ASPECT_SIZES[aspect].height]);
  expect(r.sar).toBe('1:1');
  expect(Math.abs(r.integrated_lufs! + 14)).toBeLessThanOrEqual(1);
  expect(r.true_peak_dbtp!).toBeLessThanOrEqual(-1);
  expect(r.av_drift_ms).toBeLessThanOrEqual(40);
}

/** Each shape's video, its size on disk as ffprobe reads it, and its text all there (hook, captions, end card). */
async function expectAllShapes(out: TalkingVideoOutput, spoken: string) {
  expect(out.aspects.map((a) => a.aspect)).toEqual(['4:5', '1:1']);
  for (const a of out.aspects) {
    expectGoodReport(a.report, a.aspect);
    const probed = await probeSize(a.videoPath);
    expect(probed).toEqual({ ...ASPECT_SIZES[a.aspect], sar: '1:1' });
    // Every spoken word after the hook is captioned in every shape: none is dropped for lack of room.
    expect(a.layout.captions.flatMap((c) => c.words.map((w) => w.word))).toEqual(
      out.layout.captions.flatMap((c) => c.words.map((w) => w.word)),
    );
    expect(a.layout.hook.flatMap((h) => h.lines)).not.toEqual([]);
    expect(a.report.duration_sec).toBeCloseTo(out.report.duration_sec, 1);
    const poster = await sharp(a.posterPath).metadata();
    expect([poster.width, poster.height]).toEqual([ASPECT_SIZES[a.aspect].width, ASPECT_SIZES[a.aspect].height]);
    const sheet = await sharp(a.contactSheetPath).metadata();
    expect(sheet.width).toBe(3 * 180 + 16);
    // Frames keep the shape's proportions (180 wide, an even height).
    const thumbH = 2 * Math.round((180 * ASPECT_SIZES[a.aspect].height) / ASPECT_SIZES[a.aspect].width / 2);
    expect(sheet.height).toBe(2 * thumbH + 12);
  }
  expect(out.layout.captions.length).toBeGreaterThan(0);
  expect(spoken.length).toBeGreaterThan(0);
}

describe('one render, every frame shape', () => {
  let dir: string;
  let cutoutPath: string;
  beforeAll(async () => {
    dir = process.env.HOOKREEL_KEEP_ASPECTS ?? (await mkdtemp(path.join(tmpdir(), 'hookreel-aspects-')));
    await productPhoto(path.join(dir, 'product.png'));
    cutoutPath = (await cutoutProduct({ productPath: path.join(dir, 'product.png'), outDir: dir, useModel: false }))
      .cutoutPath;
  });
  afterAll(async () => {
    if (!process.env.HOOKREEL_KEEP_ASPECTS) await rm(dir, { recursive: true, force: true });
  });

  it('a rig character holding the product, with a hook, captions, a watermark and an end card', async () => {
    const script = 'Stop scrolling if your skin looks dull. This serum fixed mine. Try it today!';
    const out = await renderTalkingVideo({
      script,
      hookText: 'Stop scrolling if your skin looks dull.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('young woman in her 20s', 3) },
      product: { cutoutPath, placement: { position_x: 370, position_y: 700, scale: 0.35, rotation: -6 } },
      captionStyle: 'highlight',
      cta: 'Shop now',
      watermark: true,
      aspects: ['1:1', '4:5'],
      workDir: path.join(dir, 'rig'),
    });
    expectGoodReport(out.report, '9:16');
    await expectAllShapes(out, script);
    // Lip motion survives the cut: the mouth patch follows the mouth in each shape.
    for (const a of out.aspects) expect(a.report.mouth?.present).toBe(true);
  }, 300_000);

  it('a photo already holding the product (gentle drift), boxed captions', async () => {
    const actorPath = path.join(dir, 'actor.png');
    await sharp(await renderActorPortrait(actorFromDescription('man in his 40s', 2))).toFile(actorPath);
    const merged = path.join(dir, 'merged.png');
    const placement = { position_x: 372, position_y: 700, scale: 0.4, rotation: -8 };
    await compositeProduct({ actorPath, productPath: cutoutPath, placement, outPath: merged });
    const script = 'I tried everything. This one works.';
    const out = await renderTalkingVideo({
      script,
      hookText: 'My skin before and after',
      language: 'english',
      accent: 'american',
      actor: { kind: 'photo', imagePath: merged, gender: 'male' },
      productFrameBox: rotatedBox(372, 700, 480 * 0.4, 640 * 0.4, -8),
      captionStyle: 'boxed',
      cta: 'Get 20% off',
      watermark: false,
      aspects: ['4:5', '1:1'],
      workDir: path.join(dir, 'photo'),
    });
    expectGoodReport(out.report, '9:16');
    await expectAllShapes(out, script);
  }, 300_000);
});
