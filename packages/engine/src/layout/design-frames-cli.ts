import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { actorFromDescription } from '../actors/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { rigActor } from '../motion/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { concatFileLine, FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';

/**
 * `node --import tsx packages/engine/src/layout/design-frames-cli.ts [dir]`: renders the hook-pack video that
 * docs/video-design.md compares before and after (the same character, hook, product and moments as its earlier
 * pictures) with today's engine, extracts frames from the MP4 with ffmpeg and writes them side by side as
 * `layout-after.png`, plus the video's contact sheet as `contact-sheet.jpg`. `rig-after.png` is the same
 * character at the same moments with no text at all: today's rig, grip and camera alone (its pose frames played
 * through the camera filter, as the render does before the captions). `rig-before.png` shows the renderer
 * that no longer exists and is not regenerated.
 */
const outDir = path.resolve(process.argv[2] ?? 'docs/video-design');
const work = await mkdtemp(path.join(os.tmpdir(), 'hookreel-design-frames-'));
try {
  await mkdir(outDir, { recursive: true });
  const photo = path.join(work, 'product.png');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect width="480" height="640" fill="#ffffff"/>
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#2d6cd6"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/>
    <text x="240" y="356" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#2d6cd6"
      text-anchor="middle">GLOW</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(photo);
  const { cutoutPath } = await cutoutProduct({ productPath: photo, outDir: work, useModel: false });
  const hook = 'Stop scrolling if your skin looks dull.';
  const spec = actorFromDescription('elderly grandmother with grey hair and glasses', 0);
  const placement = { position_x: 370, position_y: 700, scale: 0.35, rotation: -6 };
  const out = await renderTalkingVideo({
    script: `${hook} This serum gives you a glow in one week. Try it today!`,
    hookText: hook,
    language: 'english',
    accent: 'american',
    actor: { kind: 'procedural', spec },
    product: { cutoutPath, placement },
    captionStyle: 'highlight',
    cta: 'Try GLOW today',
    watermark: true,
    workDir: path.join(work, 'render'),
  });
  const times = [0.8, 2.3, 5.4, out.durationSec - 0.4];
  const frames: string[] = [];
  for (const [i, t] of times.entries()) {
    const f = path.join(work, `frame-${i}.png`);
    await runProcess(FFMPEG, [
      ...['-y', '-v', 'error', '-ss', t.toFixed(2), '-i', out.videoPath, '-frames:v', '1'],
      ...['-vf', 'scale=300:-2', f],
    ]);
    frames.push(f);
  }
  await runProcess(FFMPEG, [
    '-y',
    '-v',
    'error',
    ...frames.flatMap((f) => ['-i', f]),
    '-filter_complex',
    `hstack=inputs=${frames.length}`,
    path.join(outDir, 'layout-after.png'),
  ]);
  await sharp(out.contactSheetPath).toFile(path.join(outDir, 'contact-sheet.jpg'));

  // The rig alone: the same poses and camera from the same word timings, without captions, sticker or card.
  const rig = await rigActor({
    spec,
    product: { cutoutPath, placement },
    words: out.words,
    totalSec: out.durationSec,
    hookText: hook,
  });
  const list = path.join(work, 'rig-frames.txt');
  const lines = rig.segments.flatMap((s) => [concatFileLine(s.path), `duration ${s.durationSec.toFixed(4)}`]);
  lines.push(concatFileLine(rig.segments[rig.segments.length - 1]!.path));
  await writeFile(list, lines.join('\n') + '\n');
  const rigVideo = path.join(work, 'rig.mp4');
  await runProcess(FFMPEG, [
    ...['-y', '-v', 'error', '-f', 'concat', '-safe', '0', '-i', list],
    ...['-filter_complex', `[0:v]format=yuv420p,fps=30,${rig.camera},setsar=1[v]`, '-map', '[v]'],
    ...['-c:v', 'libx264', '-crf', '16', '-preset', 'veryfast', '-t', out.durationSec.toFixed(3), rigVideo],
  ]);
  const rigFrames: string[] = [];
  for (const [i, t] of times.slice(0, 3).entries()) {
    const f = path.join(work, `rig-${i}.png`);
    await runProcess(FFMPEG, [
      ...['-y', '-v', 'error', '-ss', t.toFixed(2), '-i', rigVideo, '-frames:v', '1'],
      ...['-vf', 'scale=300:-2', f],
    ]);
    rigFrames.push(f);
  }
  await runProcess(FFMPEG, [
    ...['-y', '-v', 'error', ...rigFrames.flatMap((f) => ['-i', f])],
    ...['-filter_complex', `hstack=inputs=${rigFrames.length}`, path.join(outDir, 'rig-after.png')],
  ]);
  console.log(
    `[design-frames] ${out.durationSec.toFixed(2)} s at ${times.map((t) => t.toFixed(1)).join(', ')} s; checks: ${out.report.checks
      .map((c) => `${c.id}=${c.level}`)
      .join(' ')}`,
  );
  console.log(`[design-frames] hook on screen ${out.layout.hook[0]?.startSec}–${out.layout.hook.at(-1)?.endSec} s`);
} finally {
  await rm(work, { recursive: true, force: true });
}
