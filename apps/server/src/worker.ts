import { loadConfig } from './config.ts';
import { closeContext, createContext } from './context.ts';
import { onStopSignal } from './stop-signals.ts';

/**
 * `npm run worker`: runs jobs without serving HTTP. With REDIS_URL it is a BullMQ worker (scale mode); without,
 * it runs the embedded runner against the shared database (several may run against one PostgreSQL).
 * SIGTERM/SIGINT: stop taking jobs, let running ones finish within JOB_SHUTDOWN_GRACE_MS, hand back the rest.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, RUN_JOBS: 'true' });
  const ctx = await createContext(config);
  await ctx.jobs.start();
  console.log(
    `[worker] running ${ctx.jobs.backend} jobs (concurrency ${config.workerConcurrency} renders, ` +
      `${config.backgroundJobConcurrency} background)`,
  );

  // The runner's timers are unref'd (in an API process the HTTP server keeps it up); here nothing else would,
  // and the embedded runner's worker would exit as soon as it started.
  const keepAlive = setInterval(() => undefined, 60_000);
  onStopSignal(async (signal) => {
    console.log(`[worker] ${signal}: finishing or handing back running jobs`);
    await closeContext(ctx);
    clearInterval(keepAlive);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
