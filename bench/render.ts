/**
 * Render throughput: 12 videos of ~10 s through the real job system (embedded runner, SQLite, local engine),
 * compared with a bare ffmpeg encode of the same frames and audio: one rendered video's frames, decoded once to
 * raw yuv420p, and its sound track, encoded 12 times (two at a time) with the renders' codec settings. The
 * difference is everything a render does besides encoding: voice, pose frames, camera, captions, loudness, report.
 * Wall time and CPU time (user+sys of this process and all its children, long-lived festival sessions ended and
 * reaped first) are both measured. When other work shares the machine during the run, wall time says little, so
 * the ratio is then taken on CPU time (and says so).
 * The actor's pose frames are drawn within the run, from an empty cache, as a new pack's are.
 * This machine's speed drifts by several percent from one half minute to the next (the bare encode's own CPU for
 * the same work moved 20.5–24.7 s between runs), so one render next to one bare encode gives a ratio that is as
 * much drift as render: the bench runs BENCH_ROUNDS rounds (3) of a pack of renders and then a bare encode,
 * compares each pack with the mean of the bare encodes before and after it, and reports each round and the median
 * one (decision 170).
 * Prints: render: 12 videos in <s> s wall, <s> s CPU (<videos/min> videos/min, <ratio>x a bare ffmpeg encode of
 * the same frames, on <wall|CPU> time; …; median of <n> rounds)
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeSpawner } from '../packages/engine/src/util/spawner.ts';
import { closeProvenanceTool } from '../packages/engine/src/provenance/index.ts';
import { closeFestivalSessions } from '../packages/engine/src/voice/festival.ts';
import { rigFramesDrawn } from '../packages/engine/src/motion/frames.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { closeContext, createContext } from '../apps/server/src/context.ts';
import { grantCredits } from '../apps/server/src/services/billing/credits.ts';
import { createJob, newBatchId, submitJobs } from '../apps/server/src/services/jobs/index.ts';
import { renderProjectVideoJob } from '../apps/server/src/services/projects/jobs.ts';
import { createProject, updateProject } from '../apps/server/src/services/projects/projects.ts';
import { createUserWithFreeCredits } from '../apps/server/src/services/account/users.ts';
import { bareEncode, cpuSeconds, findFile, type FloorRun, machineBusySeconds } from './lib/floor.ts';
import { photoLine } from './photo.ts';

const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 12);
/** Rounds of renders and bare encodes, alternated (see the header); the figures printed are the median round's. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
// About 10 seconds of speech.
const SCRIPT =
  'I was skeptical at first, but this serum changed my mornings. Seven days in, my skin feels smooth and it finally glows. Try it today.';

interface RenderRun {
  wall: number;
  cpu: number;
  /** Share of the cores other processes used meanwhile. */
  othersShare: number;
  selfCpu: number;
  framesDrawn: number;
  concurrency: number;
}

interface Round {
  render: RenderRun;
  /** The bare encodes right before and after the render, as one (`meanFloor`). */
  bare: FloorRun;
  /** Other work took more than BUSY_SHARE of the cores in either half: the round's ratio is on CPU time. */
  busy: boolean;
  ratio: number;
}

/** 12 renders of one project through the job system, in a data directory of their own; keeps one video. */
async function renderPack(dataDir: string, keepVideoAs: string): Promise<RenderRun> {
  // An empty cache of actor frames, as for a new pack: its actor is drawn once within the timed run, whatever
  // earlier runs or rounds left on this machine.
  process.env.HOOKREEL_RIG_CACHE = path.join(dataDir, 'rig-cache');
  const drawnBefore = rigFramesDrawn();
  const ctx = await createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JOB_POLL_MS: '50' }));
  try {
    const user = await ctx.db.kysely.transaction().execute((trx) =>
      createUserWithFreeCredits(trx, {
        email: 'bench@example.com',
        passwordHash: null,
        trialCredits: ctx.config.trialCredits,
      }),
    );
    if (!user) throw new Error('could not create the bench user');
    await grantCredits(ctx.db.kysely, user.id, VIDEOS * 100, 'bench');
    const { id: projectId } = await createProject(ctx, user.id, { fields: { name: 'Bench serum' }, file: null });
    await updateProject(ctx, user.id, projectId, { script: SCRIPT });

    const started = performance.now();
    const cpuStarted = await cpuSeconds();
    const machineStarted = await machineBusySeconds();
    const selfStarted = process.cpuUsage();
    const batchId = newBatchId();
    const { jobIds } = await submitJobs(ctx, user.id, async (trx) => {
      const ids: number[] = [];
      for (let i = 0; i < VIDEOS; i++) {
        ids.push(
          await createJob(trx, renderProjectVideoJob, {
            userId: user.id,
            payload: { projectId },
            projectName: 'Bench serum',
            projectId,
            price: 'video',
            batchId,
          }),
        );
      }
      return { jobIds: ids };
    });
    await ctx.jobs.start();
    for (;;) {
      const rows = await ctx.db.kysely.selectFrom('jobs').select(['status']).where('id', 'in', jobIds).execute();
      const unfinished = rows.filter((r) => r.status !== 'completed' && r.status !== 'failed').length;
      if (!unfinished) {
        const failed = rows.filter((r) => r.status === 'failed').length;
        if (failed) throw new Error(`${failed} of ${VIDEOS} renders failed`);
        break;
      }
      // Looked at often once the last renders run, so the clock stops when they end, not up to a poll later.
      await new Promise((r) => setTimeout(r, unfinished > 2 ? 100 : 10));
    }
    // Festival sessions outlive the renders they spoke for, and the spawner helper reaps the programs it starts
    // (decision 166): both are ended and reaped here, so their CPU time is counted.
    await closeFestivalSessions();
    await closeProvenanceTool();
    await closeSpawner();
    const wall = (performance.now() - started) / 1000;
    const cpu = (await cpuSeconds()) - cpuStarted;
    const machine = (await machineBusySeconds()) - machineStarted;
    const self = process.cpuUsage(selfStarted);
    await ctx.jobs.stop();
    await copyFile(await findFile(ctx.config.filesDir, 'video.mp4'), keepVideoAs);
    return {
      wall,
      cpu,
      // CPU the rest of the machine used while the renders ran, as a share of what the cores could give.
      othersShare: Math.max(0, machine - cpu) / (cpus().length * wall),
      selfCpu: (self.user + self.system) / 1e6,
      framesDrawn: rigFramesDrawn() - drawnBefore,
      concurrency: ctx.config.workerConcurrency,
    };
  } finally {
    await closeContext(ctx);
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-'));
  try {
    const video = path.join(dir, 'rendered.mp4');
    const rounds: Round[] = [];
    const floor = (i: number) => bareEncode({ video, workDir: path.join(dir, `bare-${i}`), count: VIDEOS, atOnce: 2 });
    const floors: FloorRun[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const dataDir = path.join(dir, `round-${i}`);
      await mkdir(dataDir, { recursive: true });
      await mkdir(path.join(dir, `bare-${i}`), { recursive: true });
      // Renders and bare encodes alternate, and a render is compared with the bare encodes on both sides of it
      // (the first has only the one after it): a machine that speeds up or slows down during the run moves both
      // sides of the ratio alike (decision 170).
      const render = await renderPack(dataDir, video);
      await rm(dataDir, { recursive: true, force: true });
      floors.push(await floor(i));
      const bare = meanFloor(floors.slice(Math.max(0, i - 1)));
      const busy = render.othersShare > BUSY_SHARE || bare.othersShare > BUSY_SHARE;
      const ratio = busy ? render.cpu / bare.cpu : render.wall / bare.wall;
      rounds.push({ render, bare, busy, ratio });
      console.log(
        `round ${i + 1}: render ${render.wall.toFixed(1)} s wall, ${render.cpu.toFixed(1)} s CPU ` +
          `(${render.selfCpu.toFixed(1)} s in this process); ` +
          `bare encode ${bare.wall.toFixed(1)} s wall, ${bare.cpu.toFixed(1)} s CPU` +
          (i > 0 ? ' (mean of the encodes before and after)' : '') +
          `; ${ratio.toFixed(2)}x on ${busy ? 'CPU' : 'wall'} time (wall ${(render.wall / bare.wall).toFixed(2)}x, ` +
          `CPU ${(render.cpu / bare.cpu).toFixed(2)}x)`,
      );
    }
    const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    const { render, bare, busy } = median;
    const range = (f: (r: Round) => number) =>
      `${Math.min(...rounds.map(f)).toFixed(2)}–${Math.max(...rounds.map(f)).toFixed(2)}`;
    console.log(`cores: ${render.concurrency} concurrent renders`);
    console.log(
      `actor: ${render.framesDrawn} pose frames drawn in this round (an empty frame cache, as for a new pack)`,
    );
    console.log(
      `cpu: ${render.cpu.toFixed(1)} s user+sys for ${VIDEOS} videos (this process and its ffmpeg/voice children; ` +
        `${render.selfCpu.toFixed(1)} s in this process)`,
    );
    console.log(
      `machine: other work used ${(render.othersShare * 100).toFixed(0)}% of the cores during the renders, ` +
        `${(bare.othersShare * 100).toFixed(0)}% during the bare encode` +
        (busy ? ' (busy: the ratio is on CPU time)' : ' (idle: the ratio is on wall time)'),
    );
    console.log(
      `bare ffmpeg encode of the same frames: ${bare.wall.toFixed(1)} s wall, ${bare.cpu.toFixed(1)} s CPU for ${VIDEOS} videos`,
    );
    console.log(
      `rounds: ${ROUNDS}; ratios ${range((r) => r.ratio)} (wall ${range((r) => r.render.wall / r.bare.wall)}, ` +
        `CPU ${range((r) => r.render.cpu / r.bare.cpu)}); the lines above and below are the median round's`,
    );
    console.log(
      `render: ${VIDEOS} videos in ${render.wall.toFixed(1)} s wall, ${render.cpu.toFixed(1)} s CPU (${((VIDEOS / render.wall) * 60).toFixed(1)} videos/min, ` +
        `${median.ratio.toFixed(2)}x a bare ffmpeg encode of the same frames, on ${busy ? 'CPU' : 'wall'} time; ` +
        `wall ${(render.wall / bare.wall).toFixed(2)}x, CPU ${(render.cpu / bare.cpu).toFixed(2)}x; median of ${ROUNDS} rounds)`,
    );
    if (process.env.BENCH_PHOTO !== '0') await photoLine(dir, VIDEOS);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The bare encodes a render is compared with, as one: their mean times, the busiest machine share. */
function meanFloor(runs: readonly FloorRun[]): FloorRun {
  const mean = (f: (r: FloorRun) => number) => runs.reduce((sum, r) => sum + f(r), 0) / runs.length;
  return {
    wall: mean((r) => r.wall),
    cpu: mean((r) => r.cpu),
    othersShare: Math.max(...runs.map((r) => r.othersShare)),
  };
}

/** Above this share of the cores used by other processes, the machine counts as busy. */
const BUSY_SHARE = 0.1;

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
