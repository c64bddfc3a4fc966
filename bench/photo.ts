/**
 * The photo actor's line of the render bench: 12 videos of one photo actor (the astronaut test portrait) rendered
 * by the engine two at a time, as the worker runs them, next to a bare ffmpeg encode of the same frames; the
 * once-per-actor preparation (face analysis at upload, mesh and crop) timed apart, before the pack; the render
 * process's peak memory sampled throughout. Skipped with BENCH_PHOTO=0.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { renderTalkingVideo } from '../packages/engine/src/pipeline.ts';
import { analyzePortrait, endFaceDetector } from '../packages/engine/src/photo/index.ts';
import { portraitFixture } from '../packages/engine/src/photo/fixtures.ts';
import { photoStatesDrawn, preparePhotoActor } from '../packages/engine/src/talk/index.ts';
import { closeProvenanceTool } from '../packages/engine/src/provenance/index.ts';
import { closeFestivalSessions } from '../packages/engine/src/voice/festival.ts';
import { closeSpawner } from '../packages/engine/src/util/spawner.ts';
import { bareEncode, cpuSeconds } from './lib/floor.ts';

const SCRIPT =
  'I was skeptical at first, but this serum changed my mornings. Seven days in, my skin feels smooth and it finally glows. Try it today.';

export async function photoLine(dir: string, videos: number): Promise<void> {
  const work = path.join(dir, 'photo');
  await mkdir(work, { recursive: true });
  process.env.HOOKREEL_RIG_CACHE = path.join(work, 'cache');
  const photo = path.join(work, 'portrait.png');
  await writeFile(photo, await portraitFixture('portrait'));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const t0 = performance.now();
    const analysis = await analyzePortrait(photo);
    const analyzeSec = (performance.now() - t0) / 1000;
    // Ended and reaped before the pack's CPU is read, so the pack's own detector (its reports) is counted alone.
    await endFaceDetector();
    if (!analysis.ok) throw new Error(`the bench portrait was refused: ${analysis.reason}`);
    const face = analysis.face;
    const t1 = performance.now();
    await preparePhotoActor({ photoPath: photo, face, product: null });
    const prepSec = (performance.now() - t1) / 1000;
    peak = 0;
    const drawnBefore = photoStatesDrawn();
    const started = performance.now();
    const cpuStarted = await cpuSeconds();
    let next = 0;
    const lane = async () => {
      while (next < videos) {
        const i = next++;
        await renderTalkingVideo({
          script: SCRIPT,
          language: 'english',
          accent: 'american',
          actor: { kind: 'photo', imagePath: photo, gender: 'female', face },
          hookText: 'I was skeptical at first,',
          watermark: false,
          workDir: path.join(work, `v${i}`),
        });
      }
    };
    await Promise.all([lane(), lane()]);
    await closeFestivalSessions();
    await closeProvenanceTool();
    await closeSpawner();
    const wall = (performance.now() - started) / 1000;
    // The reports' face detector is a child of this process: its CPU is counted once it has exited and been reaped.
    await endFaceDetector();
    const cpu = (await cpuSeconds()) - cpuStarted;
    await mkdir(path.join(work, 'bare'), { recursive: true });
    const bare = await bareEncode({
      video: path.join(work, 'v0', 'video.mp4'),
      workDir: path.join(work, 'bare'),
      count: videos,
      atOnce: 2,
    });
    console.log(
      `photo actor: prepared once in ${prepSec.toFixed(2)} s (mesh, crop, colours) after the upload's face analysis ` +
        `(${analyzeSec.toFixed(2)} s, first run of the detector)`,
    );
    console.log(
      `photo actor: ${videos} videos in ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU; bare encode of the same ` +
        `frames ${bare.wall.toFixed(1)} s wall, ${bare.cpu.toFixed(1)} s CPU: ${(wall / bare.wall).toFixed(2)}x wall, ` +
        `${(cpu / bare.cpu).toFixed(2)}x CPU (the reports' face detector included); ` +
        `${photoStatesDrawn() - drawnBefore} face states drawn; ` +
        `peak render memory ${(peak / 1e6).toFixed(0)} MB (this process's RSS); machine load ${loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    clearInterval(sampler);
  }
}
