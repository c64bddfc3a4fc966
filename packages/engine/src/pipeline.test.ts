import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription, actorFromSeed, renderActorPortrait } from './actors/index.ts';
import { compositeProduct } from './composite/index.ts';
import { cutoutProduct } from './cutout/index.ts';
import { renderTalkingVideo } from './pipeline.ts';
import { mouthTimeline } from './render/index.ts';
import { hardFailures } from './report/index.ts';
import type { LipSyncProvider } from './remote/fal.ts';
import { ffprobe } from './util/media.ts';
import { runProcess } from './util/process.ts';

/** A product photo: a red bottle with a cap and a label on white, at a known place. */
async function productPhoto(file: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect width="480" height="640" fill="#ffffff"/>
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#d62d2d"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('engine stages', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-engine-'));
    await productPhoto(path.join(dir, 'product.png'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('draws the same person for the same description and a different one for another seed', async () => {
    const a = await renderActorPortrait(actorFromDescription('young woman who loves skincare', 0));
    const b = await renderActorPortrait(actorFromDescription('young woman who loves skincare', 0));
    const c = await renderActorPortrait(actorFromDescription('young woman who loves skincare', 1));
    const d = await renderActorPortrait(actorFromSeed('another seed', 'young woman who loves skincare'));
    expect(sha(a)).toBe(sha(b));
    expect(sha(c)).not.toBe(sha(a));
    expect(sha(d)).not.toBe(sha(a));
    expect(actorFromDescription('a man at his office desk', 0)).toMatchObject({ gender: 'male', background: 'office' });
    const meta = await sharp(a).metadata();
    expect([meta.width, meta.height]).toEqual([576, 1024]);
    const open = await renderActorPortrait(actorFromDescription('young woman who loves skincare', 0), {
      mouthOpen: true,
    });
    expect(sha(open)).not.toBe(sha(a));
  });

  it('cuts the product out of its photo and finds its box, shape and category', async () => {
    const out = await cutoutProduct({ productPath: path.join(dir, 'product.png'), outDir: path.join(dir, 'cutout') });
    expect(out.method).toBe('model+colour');
    expect(out.box.left).toBeGreaterThanOrEqual(165);
    expect(out.box.left).toBeLessThanOrEqual(175);
    expect(out.box.top).toBeGreaterThanOrEqual(105);
    expect(out.box.top).toBeLessThanOrEqual(115);
    expect(out.box.width).toBeGreaterThanOrEqual(130);
    expect(out.box.width).toBeLessThanOrEqual(150);
    expect(out.box.height).toBeGreaterThanOrEqual(440);
    expect(out.box.height).toBeLessThanOrEqual(460);
    expect(out.shape).toBe('bottle');
    const alpha = await sharp(out.cutoutPath).extractChannel(3).raw().toBuffer({ resolveWithObject: true });
    expect(alpha.info.width).toBe(480);
    expect(alpha.data[10 * 480 + 10]).toBe(0); // background corner is transparent
    expect(alpha.data[400 * 480 + 240]).toBe(255); // the bottle body is opaque
  }, 120_000);

  it('composites the product at its placement in the 576x1024 frame', async () => {
    const actor = path.join(dir, 'actor.png');
    await sharp(await renderActorPortrait(actorFromDescription('man outdoors', 0))).toFile(actor);
    const cut = await cutoutProduct({
      productPath: path.join(dir, 'product.png'),
      outDir: path.join(dir, 'cut2'),
      useModel: false,
    });
    const outPath = path.join(dir, 'merged.png');
    const maskPath = path.join(dir, 'merged-mask.png');
    await compositeProduct({
      actorPath: actor,
      productPath: cut.cutoutPath,
      placement: { position_x: 300, position_y: 600, scale: 0.5, rotation: 0 },
      outPath,
      maskPath,
    });
    const { data, info } = await sharp(outPath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([576, 1024]);
    // The bottle below its label (photo 240,480 → frame 300 + (240-240)*0.5, 600 + (480-320)*0.5) is red.
    const p = (680 * 576 + 300) * 3;
    expect(data[p]).toBeGreaterThan(180);
    expect(data[p + 1]).toBeLessThan(80);
    const mask = await sharp(maskPath).greyscale().raw().toBuffer();
    expect(mask[680 * 576 + 300]).toBe(255);
    expect(mask[100 * 576 + 100]).toBe(0);
  });

  it('flaps the mouth only while words are spoken and covers the whole duration', () => {
    const segs = mouthTimeline(
      [
        { word: 'Hi', startSec: 0.2, endSec: 0.5 },
        { word: 'there', startSec: 0.8, endSec: 1.2 },
      ],
      1.6,
    );
    expect(segs[0]).toEqual({ open: false, durationSec: expect.closeTo(0.2, 5) });
    expect(segs.reduce((s, x) => s + x.durationSec, 0)).toBeCloseTo(1.6, 5);
    expect(segs.filter((s) => s.open).length).toBeGreaterThanOrEqual(4);
  });

  it('renders a talking actor holding the product to a 720x1280 H.264/AAC MP4 with captions and a poster', async () => {
    const cut = await cutoutProduct({
      productPath: path.join(dir, 'product.png'),
      outDir: path.join(dir, 'cut3'),
      useModel: false,
    });
    const progress: number[] = [];
    const script = 'This serum changed my mornings. Try it today!';
    const out = await renderTalkingVideo({
      script,
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('woman who loves skincare', 2) },
      product: {
        cutoutPath: cut.cutoutPath,
        placement: { position_x: 380, position_y: 690, scale: 0.45, rotation: -10 },
      },
      hookText: 'Stop scrolling',
      watermark: true,
      workDir: path.join(dir, 'render'),
      onProgress: (f) => progress.push(f),
    });
    const probe = await ffprobe(out.videoPath);
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect([video.codec_name, video.width, video.height, video.pix_fmt]).toEqual(['h264', 720, 1280, 'yuv420p']);
    expect(audio.codec_name).toBe('aac');
    expect(Number(audio.duration)).toBeGreaterThan(out.durationSec - 0.6);
    expect(Number(audio.duration)).toBeLessThan(out.durationSec + 0.3);
    // +faststart: the moov box comes before the media data.
    const head = (await readFile(out.videoPath)).subarray(0, 64 * 1024).toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(0);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat') === -1 ? Infinity : head.indexOf('mdat'));
    const srt = await readFile(out.srtPath, 'utf8');
    expect(
      srt
        .replace(/\d+\n[\d:,]+ --> [\d:,]+\n/g, '')
        .split(/\s+/)
        .filter(Boolean),
    ).toEqual(script.split(' '));
    expect(await readFile(out.vttPath, 'utf8')).toMatch(/^WEBVTT/);
    const poster = await sharp(out.posterPath).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(['jpeg', 720, 1280]);
    expect(progress[progress.length - 1]).toBe(1);
    expect(hardFailures(out.report)).toEqual([]);
    // The cut-out it composited is measured too (report/matte.ts).
    expect(out.report.checks.find((c) => c.id === 'product-matte')?.level).toBe('pass');
    expect(out.report.mouth?.present).toBe(true);
    expect((await sharp(out.contactSheetPath).metadata()).format).toBe('jpeg');
    expect(progress.some((p) => p > 0.4 && p < 1)).toBe(true);
  });

  it('hands a photo actor and the voice to a lip-sync provider and renders its clip with captions', async () => {
    const actor = path.join(dir, 'photo-actor.png');
    await sharp(await renderActorPortrait(actorFromDescription('man outdoors', 3))).toFile(actor);
    const calls: Array<{ imagePath: string; audioPath: string }> = [];
    const told: string[] = [];
    // The provider's side of the contract: a talking clip of the still, with the voice, as an MP4.
    const lipSync: LipSyncProvider = {
      async lipSync(req) {
        calls.push({ imagePath: req.imagePath, audioPath: req.audioPath });
        await runProcess('ffmpeg', [
          '-y',
          '-v',
          'error',
          '-loop',
          '1',
          '-framerate',
          '25',
          '-i',
          req.imagePath,
          '-i',
          req.audioPath,
          '-shortest',
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-pix_fmt',
          'yuv420p',
          '-vf',
          'scale=576:1024',
          req.outPath,
        ]);
        return {
          videoPath: req.outPath,
          requestId: 'local-test',
          usage: { provider: 'fake', stage: 'avatar', model: 'fake-avatar', seconds: 2.5, requestId: 'local-test' },
        };
      },
    };
    const out = await renderTalkingVideo({
      script: 'Honestly, this is the only one I use now.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'photo', imagePath: actor, gender: 'male' },
      watermark: false,
      workDir: path.join(dir, 'render-lipsync'),
      lipSync,
      onUsage: (u) => void told.push(u.stage),
    });
    expect(told).toEqual(['avatar']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.audioPath.endsWith('voice.wav')).toBe(true);
    // What the provider billed travels with the output, for the job's cost.
    expect(out.usage).toEqual([
      { provider: 'fake', stage: 'avatar', model: 'fake-avatar', seconds: 2.5, requestId: 'local-test' },
    ]);
    const probe = await ffprobe(out.videoPath);
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([720, 1280]);
    expect(Number(probe.format.duration)).toBeGreaterThan(out.durationSec - 0.6);
    expect(hardFailures(out.report)).toEqual([]);
  });
});
