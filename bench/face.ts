/**
 * The photo actor's face work, timed (decisions 189–191): starting the detector with the first portrait, a warm
 * portrait, and the report's photo checks on an 8 s synthetic talking video of the test portrait (its decode, the
 * face followed through its 80 sampled frames and the measures; decision 203). Prints the detector's peak memory.
 * Prints: face: first portrait X ms (start + models), warm Y ms; photo checks Z s for 8 s of video (W ms a frame); detector peak N MB
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PHOTO_VIDEO_WORDS, photoActorVideo, portraitFixture } from '@hookreel/engine/testing';
import { analyzePortrait, faceDetectorPid, stopFaceDetector } from '../packages/engine/src/photo/index.ts';
import { photoActorChecks } from '../packages/engine/src/report/photo.ts';

async function peakMb(pid: number | null): Promise<number | null> {
  if (!pid) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Math.round(Number(m[1]) / 1024) : null;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-face-'));
  try {
    const photo = path.join(dir, 'portrait.png');
    await writeFile(photo, await portraitFixture('portrait'));
    let t = performance.now();
    const first = await analyzePortrait(photo);
    const firstMs = performance.now() - t;
    if (!first.ok) throw new Error(`portrait refused: ${first.reason}`);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      await analyzePortrait(photo);
      warm.push(performance.now() - t);
    }
    warm.sort((a, b) => a - b);
    const video = path.join(dir, 'talking.mp4');
    await photoActorVideo(video, 'talking');
    t = performance.now();
    const r = await photoActorChecks({ videoPath: video, face: first.face, words: PHOTO_VIDEO_WORDS, sceneEndSec: 8 });
    const checksMs = performance.now() - t;
    const peak = await peakMb(faceDetectorPid());
    console.log(`photo checks: ${r.checks.map((c) => `${c.id} ${c.level}`).join(', ')}`);
    console.log(
      `face: first portrait ${firstMs.toFixed(0)} ms (start + models), warm ${warm[2]!.toFixed(0)} ms; ` +
        `photo checks ${(checksMs / 1000).toFixed(1)} s for 8 s of video (${(checksMs / r.measures.frames).toFixed(0)} ms a frame); ` +
        `detector peak ${peak ?? '?'} MB`,
    );
  } finally {
    stopFaceDetector();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
