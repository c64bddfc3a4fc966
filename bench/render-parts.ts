/**
 * Where a local render's CPU goes, part by part, against the bare encode of its frames (the floor of
 * `bench/render.ts`, decision 093). The engine renders the bench's ~9 s script several times, one render at a
 * time, from an empty actor-frame cache. CPU time (this process and its finished children) is read at each of the
 * render's progress steps. The festival session is ended at the end and its CPU spread over the renders.
 * One render at a time keeps the parts apart, so the figures are a little lower than two at a time. Programs are
 * started from this process (HOOKREEL_DIRECT_SPAWN=1, not through the spawner helper of decision 166), so each
 * one's CPU is counted when it ends, in the part it belongs to.
 * Prints one line per part and: rest <s> s a video over the floor's <s> s (<ratio>x; 1.4x allows <s> s)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { actorFromDescription, renderTalkingVideo } from '../packages/engine/src/index.ts';
import { rigFramesDrawn } from '../packages/engine/src/motion/frames.ts';
import { closeProvenanceTool } from '../packages/engine/src/provenance/index.ts';
import { closeFestivalSessions } from '../packages/engine/src/voice/festival.ts';
import { bareEncode, cpuSeconds, cpuSecondsSync } from './lib/floor.ts';

process.env.HOOKREEL_DIRECT_SPAWN = '1';
const RENDERS = Number(process.env.BENCH_RENDERS ?? 6);
// The same script and actor as bench/render.ts (a project named "Bench serum" without an actor of its own).
const SCRIPT =
  'I was skeptical at first, but this serum changed my mornings. Seven days in, my skin feels smooth and it finally glows. Try it today.';
const ACTOR = actorFromDescription('Bench serum', 0);

/** The render's progress steps, in order, and the part each one starts. */
const STEPS: Array<[message: string, part: string]> = [
  ['Synthesising the voice', 'voice (this process)'],
  ['Preparing the actor', 'actor frames and held-shot framing'],
  ['Laying out the frame', 'layout and captions'],
  ['Rendering the video', 'encode (filters, x264, AAC, report taps)'],
  ['Checking the video', 'quality check (loudness meter, report)'],
];

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-parts-'));
  process.env.HOOKREEL_RIG_CACHE = path.join(dir, 'rig-cache');
  try {
    const first = new Map<string, number>();
    const later = new Map<string, number>();
    let video = '';
    const cpuBefore = await cpuSeconds();
    for (let i = 0; i < RENDERS; i++) {
      const parts = i === 0 ? first : later;
      let part: string | null = null;
      let at = cpuSecondsSync();
      const step = (next: string | null) => {
        const now = cpuSecondsSync();
        if (part) parts.set(part, (parts.get(part) ?? 0) + now - at);
        part = next;
        at = now;
      };
      const out = await renderTalkingVideo({
        script: SCRIPT,
        language: 'english',
        accent: 'american',
        actor: { kind: 'procedural', spec: ACTOR },
        watermark: true,
        workDir: path.join(dir, `render-${i}`),
        onProgress: (_f, message) => {
          const found = STEPS.find(([m]) => m === message);
          if (found && found[1] !== part) step(found[1]);
        },
      });
      step(null);
      video = out.videoPath;
    }
    const drawn = rigFramesDrawn();
    const beforeVoice = await cpuSeconds();
    await closeFestivalSessions();
    const festival = (await cpuSeconds()) - beforeVoice;
    await closeProvenanceTool();
    const exiftool = (await cpuSeconds()) - beforeVoice - festival;
    const total = (await cpuSeconds()) - cpuBefore;

    const floor = await bareEncode({ video, workDir: dir, count: RENDERS, atOnce: 1 });
    const bare = floor.cpu / RENDERS;
    const n = RENDERS - 1;
    const line = (name: string, seconds: number) => console.log(`  ${name}: ${seconds.toFixed(3)} s`);
    console.log(`parts of a render: ${RENDERS} renders of the bench script, one at a time, CPU a video`);
    line('voice (festival session, loading its voice once included)', festival / RENDERS);
    for (const [, name] of STEPS) line(name, (later.get(name) ?? 0) / n);
    line('provenance (one ExifTool process for all the renders, its start included)', exiftool / RENDERS);
    line(
      `first render only: actor frames (${drawn} pose frames drawn) and held-shot framing`,
      first.get(STEPS[1]![1]) ?? 0,
    );
    const perVideo = (total - (first.get(STEPS[1]![1]) ?? 0) + (later.get(STEPS[1]![1]) ?? 0) / n) / RENDERS;
    line('bare encode of the same frames (the floor)', bare);
    const rest = perVideo - bare;
    console.log(
      `rest: ${rest.toFixed(3)} s a video over the floor's ${bare.toFixed(3)} s (${(perVideo / bare).toFixed(2)}x, ` +
        `not counting the first render's actor; 1.4x allows ${(0.4 * bare).toFixed(3)} s)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
