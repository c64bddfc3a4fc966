import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { actorFromDescription, renderActorPortrait } from '../actors/index.ts';
import { compositeProduct } from '../composite/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { writeBlueBottlePhoto } from '../cutout/product-photos.ts';
import { renderTalkingVideo, type TalkingVideoOutput } from '../pipeline.ts';
import { rotatedBox } from './actor-boxes.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { localVoice } from '../voice/index.ts';
import { ownVoice } from '../voice/own.ts';

/**
 * `node --import tsx packages/engine/src/layout/shape-frames-cli.ts <out.png> [keepDir]`: renders a hook-pack
 * video (the hook is the whole script) and a project with its own voice-over in 9:16, 4:5 and 1:1 and writes
 * frames of every shape, one row per shape, into one small PNG (docs/video-design.md#every-frame-shape). The
 * frames are taken from the encoded MP4s with ffmpeg.
 */
const outPng = path.resolve(process.argv[2] ?? 'shape-frames.png');
const keep = process.argv[3] ? path.resolve(process.argv[3]) : null;
const work = keep ?? (await mkdtemp(path.join(os.tmpdir(), 'hookreel-shape-frames-')));
const ROW_H = 200;
try {
  await mkdir(work, { recursive: true });
  const photo = path.join(work, 'product.png');
  await writeBlueBottlePhoto(photo);
  const { cutoutPath } = await cutoutProduct({ productPath: photo, outDir: work, useModel: false });

  // A pack line: the hook is all the voice says, long enough to outlast the sticker's beat.
  const hook = 'I kept trying every serum for my dry skin until this one finally worked for me.';
  const pack = await renderTalkingVideo({
    script: hook,
    hookText: hook,
    language: 'english',
    accent: 'american',
    actor: { kind: 'procedural', spec: actorFromDescription('young woman in her 20s', 3) },
    product: { cutoutPath, placement: { position_x: 330, position_y: 640, scale: 0.5, rotation: -6 } },
    captionStyle: 'pop',
    watermark: true,
    aspects: ['4:5', '1:1'],
    workDir: path.join(work, 'pack'),
  });

  // A project with its own voice-over: a recording (here the local voice's take, saved as a file) timed to
  // the script, a hook of its own.
  const script = 'My skin was always dry in winter. Then I found this serum. Two weeks later it glows. Try it.';
  const take = await localVoice.synthesize(
    { text: script, language: 'english', accent: 'american', gender: 'male' },
    path.join(work, 'take'),
  );
  // The user's own photo, already holding the product (the merge step's output).
  const actorPath = path.join(work, 'actor.png');
  await sharp(await renderActorPortrait(actorFromDescription('bearded man in his 40s', 2))).toFile(actorPath);
  const merged = path.join(work, 'merged.png');
  const placement = { position_x: 330, position_y: 690, scale: 0.5, rotation: 4 };
  await compositeProduct({ actorPath, productPath: cutoutPath, placement, outPath: merged });
  const own = await renderTalkingVideo({
    script,
    hookText: 'Dry skin? Watch this',
    language: 'english',
    accent: 'american',
    actor: { kind: 'photo', imagePath: merged, gender: 'male' },
    productFrameBox: rotatedBox(330, 690, 480 * 0.5, 640 * 0.5, 4),
    captionStyle: 'highlight',
    cta: 'Shop now',
    watermark: true,
    voice: ownVoice(take.wavPath),
    aspects: ['4:5', '1:1'],
    workDir: path.join(work, 'own'),
  });

  const rows: Buffer[] = [];
  for (const [name, out] of [
    ['pack', pack],
    ['own', own],
  ] as const) {
    const speechEnd = out.words.at(-1)!.endSec;
    const times = [1, speechEnd * 0.5, speechEnd - 0.4];
    for (const v of videosOf(out)) {
      const frames: Buffer[] = [];
      for (const t of times) {
        const f = path.join(work, `${name}-${v.tag}-${t.toFixed(2)}.png`);
        await runProcess(FFMPEG, [
          ...['-y', '-v', 'error', '-ss', t.toFixed(2), '-i', v.path, '-frames:v', '1'],
          ...['-vf', `scale=-2:${ROW_H}`, f],
        ]);
        frames.push(await sharp(f).toBuffer());
      }
      rows.push(await hstack(frames));
    }
    console.log(
      `[shape-frames] ${name}: ${[out.report, ...out.aspects.map((a) => a.report)]
        .map(
          (r) =>
            `${r.width}x${r.height} ${
              r.checks
                .filter((c) => c.level !== 'pass')
                .map((c) => `${c.id}=${c.level} (${c.detail})`)
                .join(', ') || 'all pass'
            }`,
        )
        .join(' | ')}`,
    );
  }
  const metas = await Promise.all(rows.map((r) => sharp(r).metadata()));
  const width = Math.max(...metas.map((m) => m.width));
  const height = metas.reduce((n, m) => n + m.height + 6, 6);
  let y = 6;
  const layers = rows.map((r, i) => {
    const layer = { input: r, left: 6, top: y };
    y += metas[i]!.height + 6;
    return layer;
  });
  await sharp({ create: { width: width + 12, height, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png({ compressionLevel: 9, palette: true })
    .toFile(outPng);
  console.log(`[shape-frames] wrote ${outPng}`);
} finally {
  if (!keep) await rm(work, { recursive: true, force: true });
}

function videosOf(out: TalkingVideoOutput): { tag: string; path: string }[] {
  return [{ tag: '9x16', path: out.videoPath }, ...out.aspects.map((a) => ({ tag: a.aspect, path: a.videoPath }))];
}

async function hstack(frames: Buffer[]): Promise<Buffer> {
  const metas = await Promise.all(frames.map((f) => sharp(f).metadata()));
  const width = metas.reduce((n, m) => n + m.width + 6, -6);
  let x = 0;
  return sharp({ create: { width, height: ROW_H, channels: 3, background: '#ffffff' } })
    .composite(
      frames.map((f, i) => {
        const layer = { input: f, left: x, top: 0 };
        x += metas[i]!.width + 6;
        return layer;
      }),
    )
    .png()
    .toBuffer();
}
