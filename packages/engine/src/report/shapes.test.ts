import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ASPECTS, type QualityReport } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription, renderActorPortrait } from '../actors/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { writeBlueBottlePhoto } from '../cutout/product-photos.ts';
import { compositeProduct } from '../composite/index.ts';
import { rotatedBox } from '../layout/actor-boxes.ts';
import { renderTalkingVideo, type TalkingVideoOutput } from '../pipeline.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { localVoice } from '../voice/index.ts';
import { ownVoice } from '../voice/own.ts';
import { hardFailures } from './index.ts';
import { measureText, textChecks } from './text.ts';

/**
 * Every frame shape keeps what a person needs (decision 215): the face whole, text on screen while the voice
 * speaks (measured on the encoded frames), every letter at a readable size, the watermark on a trial video. A
 * hook-pack video (the hook is the whole script, a caption style chosen) and a project with its own voice-over
 * (a recording timed to the script), each in 9:16, 4:5 and 1:1. Short lines keep the file near a minute.
 */

const NEW_CHECKS = ['face-in-frame', 'speech-text', 'text-legible', 'watermark'] as const;

function expectSeen(r: QualityReport, shape: string) {
  expect(hardFailures(r), shape).toEqual([]);
  for (const id of NEW_CHECKS) expect(r.checks.find((c) => c.id === id)?.level, `${shape}: ${id}`).toBe('pass');
  expect(r.checks.find((c) => c.id === 'speech-text')?.detail).toMatch(/text seen at all \d+ moments/);
}

/** Each shape's report passes, and each shape captions every word the voice says once the sticker has gone. */
function expectEveryShape(out: TalkingVideoOutput) {
  expect(out.aspects.map((a) => a.aspect)).toEqual(ASPECTS.filter((a) => a !== '9:16'));
  expectSeen(out.report, '9:16');
  for (const a of out.aspects) {
    expectSeen(a.report, a.aspect);
    const hookEnd = Math.max(0, ...a.layout.hook.map((h) => h.endSec));
    const sceneEnd = a.layout.endCard?.startSec ?? Infinity;
    const spoken = out.words.filter((w) => w.startSec >= hookEnd - 0.01 && w.startSec < sceneEnd).map((w) => w.word);
    const captioned = a.layout.captions.flatMap((c) => c.words.map((w) => w.word));
    for (const w of spoken) expect(captioned, `${a.aspect}: "${w}" captioned`).toContain(w);
    for (const h of a.layout.hook) expect(h.lines.join(' ')).not.toContain('…');
  }
}

describe('every frame shape keeps the face, the words and the watermark', () => {
  let dir: string;
  let cutoutPath: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-shapes-'));
    await writeBlueBottlePhoto(path.join(dir, 'product.png'));
    cutoutPath = (await cutoutProduct({ productPath: path.join(dir, 'product.png'), outDir: dir, useModel: false }))
      .cutoutPath;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a hook-pack video: the sticker, then the chosen caption style to the last word, in every shape', async () => {
    // Longer than the sticker's beat: the voice speaks on after it leaves.
    const hook = 'I kept trying every serum for my dry skin until this one finally worked.';
    const out = await renderTalkingVideo({
      script: hook,
      hookText: hook,
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('young woman in her 20s', 3) },
      product: { cutoutPath, placement: { position_x: 330, position_y: 640, scale: 0.5, rotation: -6 } },
      captionStyle: 'pop',
      watermark: true,
      aspects: ['4:5', '1:1'],
      workDir: path.join(dir, 'pack'),
    });
    expectEveryShape(out);
    // The chosen style shows in the 9:16 video too: pop cues are one word each, after the sticker.
    expect(out.layout.captions.length).toBeGreaterThan(0);
    expect(out.layout.captions.every((c) => c.words.length === 1)).toBe(true);
    const lastWord = out.words[out.words.length - 1]!;
    expect(out.layout.captions.at(-1)!.endSec).toBeGreaterThanOrEqual(lastWord.endSec - 0.05);
  }, 300_000);

  it('a project with its own voice-over, a photo holding the product: captions in every shape', async () => {
    const script = 'My skin was always dry in winter. Then I found this serum. Now it glows.';
    // The user's recording: here the local voice's take of the script, saved as a file and used as one.
    const take = await localVoice.synthesize(
      { text: script, language: 'english', accent: 'american', gender: 'female' },
      path.join(dir, 'take'),
    );
    const actorPath = path.join(dir, 'actor.png');
    await sharp(await renderActorPortrait(actorFromDescription('woman in her 30s', 1))).toFile(actorPath);
    const merged = path.join(dir, 'merged.png');
    const placement = { position_x: 372, position_y: 700, scale: 0.45, rotation: -8 };
    await compositeProduct({ actorPath, productPath: cutoutPath, placement, outPath: merged });
    const out = await renderTalkingVideo({
      script,
      hookText: 'Dry skin? Watch this',
      language: 'english',
      accent: 'american',
      actor: { kind: 'photo', imagePath: merged, gender: 'female' },
      productFrameBox: rotatedBox(372, 700, 480 * 0.45, 640 * 0.45, -8),
      captionStyle: 'highlight',
      cta: 'Shop now',
      watermark: true,
      voice: ownVoice(take.wavPath),
      aspects: ['4:5', '1:1'],
      workDir: path.join(dir, 'own'),
    });
    expectEveryShape(out);

    // The measurement can fail: compared with itself (no text drawn anywhere) the same video shows no text while
    // the voice speaks and no watermark, and the report fails both.
    const a = out.aspects.find((x) => x.aspect === '1:1')!;
    const grey = path.join(dir, 'self.gray');
    const again = path.join(dir, 'self-again.gray');
    for (const to of [grey, again]) {
      await runProcess(FFMPEG, [
        ...['-y', '-v', 'error', '-i', a.videoPath, '-vf', 'fps=2:round=up,scale=360:360,format=gray'],
        ...['-f', 'rawvideo', to],
      ]);
    }
    const blind = await measureText({
      layout: a.layout,
      words: out.words,
      bareRawPath: grey,
      drawnRawPath: again,
      durationSec: out.durationSec,
    });
    const checks = textChecks(a.layout, blind);
    expect(checks.find((c) => c.id === 'speech-text')?.level).toBe('fail');
    expect(checks.find((c) => c.id === 'watermark')?.level).toBe('fail');
    // And a layout that lost its captions fails on the plan alone.
    const bare = textChecks({ ...a.layout, captions: [] }, blind);
    expect(bare.find((c) => c.id === 'speech-text')?.level).toBe('fail');
  }, 300_000);
});
