import { loadConfig } from './config.ts';
import { closeContext, createContext } from './context.ts';
import { buildApp } from './http/app.ts';
import { startHousekeeping } from './services/housekeeping.ts';
import { onStopSignal } from './stop-signals.ts';

/** The API (and, in embedded mode, the job runner) in one process. */
async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Hookreel is running at ${config.publicUrl} (data in ${config.dataDir})`);
  // Embedded mode runs jobs here; in scale mode (REDIS_URL) `npm run worker` does unless RUN_JOBS=true.
  await ctx.jobs.start();
  const stopHousekeeping = startHousekeeping(ctx);

  onStopSignal(async (signal) => {
    app.log.info({ signal }, 'shutting down');
    stopHousekeeping();
    await app.close();
    // closeContext stops the job runner first: running jobs finish or are handed back to the queue.
    await closeContext(ctx);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
