import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import type { MediaPort } from '../../src/media/port.ts';
import type { JobSettings } from '../../src/jobs/settings.ts';
import type { TestServer } from './app.ts';

/**
 * A BullMQ worker in this process (scale mode's `npm run worker`, without the separate process): it shares the
 * test server's DATA_DIR and database, takes jobs from `redisUrl` with the given media port and job settings, and is
 * already started. Close it with closeContext.
 */
export async function startWorkerContext(
  server: TestServer,
  opts: {
    redisUrl: string;
    media: MediaPort;
    settings: Partial<JobSettings>;
    concurrency?: number;
    backgroundConcurrency?: number;
  },
): Promise<AppContext> {
  const worker = await createContext(
    loadConfig({
      DATA_DIR: server.ctx.config.dataDir,
      DATABASE_URL: server.ctx.config.databaseUrl,
      REDIS_URL: opts.redisUrl,
      RUN_JOBS: 'true',
      WORKER_CONCURRENCY: String(opts.concurrency ?? 2),
      BACKGROUND_JOB_CONCURRENCY: String(opts.backgroundConcurrency ?? 2),
      LOG_LEVEL: 'silent',
    }),
  );
  worker.jobSettings = { ...worker.jobSettings, ...opts.settings };
  worker.media = opts.media;
  await worker.jobs.start();
  return worker;
}
