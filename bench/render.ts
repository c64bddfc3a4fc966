/**
 * Render throughput: 12 videos of ~10 s through the real job system (embedded runner, SQLite, local engine),
 * compared with a bare ffmpeg encode of the same frames and audio (no voice synthesis, captions or lip-flap).
 * Prints: render: 12 videos in <s> s (<videos/min> videos/min, <ratio>x a bare ffmpeg encode of the same frames)
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AUDIO_CODEC_ARGS, VIDEO_CODEC_ARGS } from '../packages/engine/src/render/index.ts';
import { runProcess } from '../packages/engine/src/util/process.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { closeContext, createContext } from '../apps/server/src/context.ts';
import { grantCredits } from '../apps/server/src/services/credits.ts';
import { createJob, newBatchId, submitJobs } from '../apps/server/src/services/jobs.ts';
import { renderProjectVideoJob } from '../apps/server/src/services/projects.jobs.ts';
import { createProject, updateProject } from '../apps/server/src/services/projects.ts';
import { createUserWithFreeCredits } from '../apps/server/src/services/users.ts';

const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 12);
// About 10 seconds of speech.
const SCRIPT =
  'I was skeptical at first, but this serum changed my mornings. Seven days in, my skin feels smooth and it finally glows. Try it today.';

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-'));
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
      if (rows.every((r) => r.status === 'completed' || r.status === 'failed')) {
        const failed = rows.filter((r) => r.status === 'failed').length;
        if (failed) throw new Error(`${failed} of ${VIDEOS} renders failed`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await cpuSeconds()) - cpuStarted;
    const self = process.cpuUsage(selfStarted);
    await ctx.jobs.stop();

    const bare = await bareEncodeSeconds(ctx.config.filesDir, dataDir);
    const perMin = (VIDEOS / seconds) * 60;
    console.log(`cores: ${ctx.config.workerConcurrency} concurrent renders`);
    // CPU time says what the renders cost even when other work shares the cores (wall time then grows).
    console.log(
      `cpu: ${cpu.toFixed(1)} s user+sys for ${VIDEOS} videos (this process and its ffmpeg/voice children; ` +
        `${((self.user + self.system) / 1e6).toFixed(1)} s in this process)`,
    );
    console.log(`bare ffmpeg encode of the same frames: ${bare.toFixed(1)} s for ${VIDEOS} videos`);
    console.log(
      `render: ${VIDEOS} videos in ${seconds.toFixed(1)} s (${perMin.toFixed(1)} videos/min, ${(seconds / bare).toFixed(2)}x a bare ffmpeg encode of the same frames)`,
    );
  } finally {
    await closeContext(ctx);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The floor: the same still frame and a silent track of the same length, encoded with the same codec settings,
 * VIDEOS times with the same parallelism (two at a time), no voice, captions or lip-flap.
 */
async function bareEncodeSeconds(filesDir: string, dataDir: string): Promise<number> {
  const poster = await findFile(filesDir, 'poster.jpg');
  const video = await findFile(filesDir, 'video.mp4');
  const { stdout } = await runProcess('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    video,
  ]);
  const duration = Number(stdout.trim());
  const encode = (i: number) =>
    runProcess('ffmpeg', [
      '-y',
      '-v',
      'error',
      '-loop',
      '1',
      '-framerate',
      '30',
      '-t',
      String(duration),
      '-i',
      poster,
      '-f',
      'lavfi',
      '-t',
      String(duration),
      '-i',
      'anullsrc=r=48000:cl=mono',
      ...VIDEO_CODEC_ARGS,
      '-pix_fmt',
      'yuv420p',
      ...AUDIO_CODEC_ARGS,
      '-movflags',
      '+faststart',
      path.join(dataDir, `bare-${i}.mp4`),
    ]);
  const started = performance.now();
  for (let i = 0; i < VIDEOS; i += 2) await Promise.all([encode(i), i + 1 < VIDEOS ? encode(i + 1) : null]);
  return (performance.now() - started) / 1000;
}

/**
 * User+sys CPU seconds of this process plus its finished children (ffmpeg, the voices), from /proc (Linux):
 * fields 14–17 of /proc/self/stat are utime, stime, cutime, cstime in clock ticks (100 per second).
 */
async function cpuSeconds(): Promise<number> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name, field 3 (state) is index 0, so utime (field 14) is index 11.
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
}

async function findFile(root: string, name: string): Promise<string> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const hit = entries.find((e) => e.isFile() && e.name === name);
  if (!hit) throw new Error(`no ${name} under ${root}`);
  return path.join(hit.parentPath, hit.name);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
