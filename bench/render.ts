/**
 * Render throughput: 12 videos of ~10 s through the real job system (embedded runner, SQLite, local engine),
 * compared with a bare ffmpeg encode of the same frames and audio: one rendered video's frames, decoded once to
 * raw yuv420p, and its sound track, encoded 12 times (two at a time) with the renders' codec settings. The
 * difference is everything a render does besides encoding: voice, pose frames, camera, captions, loudness, report.
 * Wall time and CPU time (user+sys of this process and all its children, long-lived festival sessions ended and
 * reaped first) are both measured. When other work shares the machine during the run, wall time says little, so
 * the ratio is then taken on CPU time (and says so).
 * The actor's pose frames are drawn within the run, from an empty cache, as a new pack's are.
 * Prints: render: 12 videos in <s> s wall, <s> s CPU (<videos/min> videos/min, <ratio>x a bare ffmpeg encode of
 * the same frames, on <wall|CPU> time)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeSpawner } from '../packages/engine/src/util/spawner.ts';
import { closeFestivalSessions } from '../packages/engine/src/voice/festival.ts';
import { rigFramesDrawn } from '../packages/engine/src/motion/frames.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { closeContext, createContext } from '../apps/server/src/context.ts';
import { grantCredits } from '../apps/server/src/services/credits.ts';
import { createJob, newBatchId, submitJobs } from '../apps/server/src/services/jobs.ts';
import { renderProjectVideoJob } from '../apps/server/src/services/projects.jobs.ts';
import { createProject, updateProject } from '../apps/server/src/services/projects.ts';
import { createUserWithFreeCredits } from '../apps/server/src/services/users.ts';
import { bareEncode, cpuSeconds, findFile, machineBusySeconds } from './lib/floor.ts';

const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 12);
// About 10 seconds of speech.
const SCRIPT =
  'I was skeptical at first, but this serum changed my mornings. Seven days in, my skin feels smooth and it finally glows. Try it today.';

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-'));
  // An empty cache of actor frames, as for a new pack: its actor is drawn once within the timed run, whatever
  // earlier runs left on this machine.
  process.env.HOOKREEL_RIG_CACHE = path.join(dataDir, 'rig-cache');
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
    await closeSpawner();
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await cpuSeconds()) - cpuStarted;
    const machine = (await machineBusySeconds()) - machineStarted;
    const self = process.cpuUsage(selfStarted);
    await ctx.jobs.stop();

    const bare = await bareEncode({
      video: await findFile(ctx.config.filesDir, 'video.mp4'),
      workDir: dataDir,
      count: VIDEOS,
      atOnce: 2,
    });
    // CPU the rest of the machine used while the renders ran, as a share of what the cores could give.
    const others = Math.max(0, machine - cpu) / (cpus().length * seconds);
    const busy = others > BUSY_SHARE || bare.othersShare > BUSY_SHARE;
    const ratio = busy ? cpu / bare.cpu : seconds / bare.wall;
    const perMin = (VIDEOS / seconds) * 60;
    console.log(`cores: ${ctx.config.workerConcurrency} concurrent renders`);
    console.log(`actor: ${rigFramesDrawn()} pose frames drawn in this run (an empty frame cache, as for a new pack)`);
    console.log(
      `cpu: ${cpu.toFixed(1)} s user+sys for ${VIDEOS} videos (this process and its ffmpeg/voice children; ` +
        `${((self.user + self.system) / 1e6).toFixed(1)} s in this process)`,
    );
    console.log(
      `machine: other work used ${(others * 100).toFixed(0)}% of the cores during the renders, ` +
        `${(bare.othersShare * 100).toFixed(0)}% during the bare encode` +
        (busy ? ' (busy: the ratio is on CPU time)' : ' (idle: the ratio is on wall time)'),
    );
    console.log(
      `bare ffmpeg encode of the same frames: ${bare.wall.toFixed(1)} s wall, ${bare.cpu.toFixed(1)} s CPU for ${VIDEOS} videos`,
    );
    console.log(
      `render: ${VIDEOS} videos in ${seconds.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (${perMin.toFixed(1)} videos/min, ` +
        `${ratio.toFixed(2)}x a bare ffmpeg encode of the same frames, on ${busy ? 'CPU' : 'wall'} time; ` +
        `wall ${(seconds / bare.wall).toFixed(2)}x, CPU ${(cpu / bare.cpu).toFixed(2)}x)`,
    );
  } finally {
    await closeContext(ctx);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Above this share of the cores used by other processes, the machine counts as busy. */
const BUSY_SHARE = 0.1;

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
