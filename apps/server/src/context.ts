import type { Config } from './config.ts';
import { createAccessTokenSigner, type AccessTokenSigner } from './auth/access-token.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import type { FileStore } from './storage/file-store.ts';
import { createLocalFileStore } from './storage/local-file-store.ts';
import { createS3FileStore } from './storage/s3-file-store.ts';
import { seedActorCatalogue } from './services/avatars/index.ts';
import type { RemoteImageFetchOptions } from './services/platform/index.ts';
import { createLocalJobEvents, createRedisJobEvents, type JobEventBus } from './jobs/events.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { JOB_DEFINITIONS, JOB_RUNNER_HOOKS } from './job-definitions.ts';
import { jobSettingsFromEnv, type JobSettings } from './jobs/settings.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { engineMedia } from './media/engine.ts';
import type { MediaPort } from './media/port.ts';

/** Everything a service needs, built once per process from the config (and replaced piecewise in tests). */
export interface AppContext {
  config: Config;
  db: Db;
  files: FileStore;
  tokens: AccessTokenSigner;
  /** Job dispatch (embedded runner or BullMQ); `start()` runs jobs in this process when config.runJobs. */
  jobs: JobQueue;
  /** Job update/cancel notifications (in-process, or Redis pub/sub in scale mode). */
  jobEvents: JobEventBus;
  /** Runner tuning (lease, heartbeat, poll, retry backoff); read when the runner starts. */
  jobSettings: JobSettings;
  /** All media work (renders, cut-outs, composites) behind one port; packages/engine by default, tests swap it. */
  media: MediaPort;
  mailer: Mailer;
  /** Test-only switches for fetching pasted image addresses (a local fake server); unset in a running server. */
  remoteImageFetch?: RemoteImageFetchOptions;
  /** Closed in reverse order on shutdown. */
  closers: Array<() => Promise<void>>;
}

export async function createContext(config: Config): Promise<AppContext> {
  const db = openDatabase(config.databaseUrl);
  await migrate(db);
  const ctx: AppContext = {
    config,
    db,
    files: config.s3 ? createS3FileStore(config.s3) : createLocalFileStore(config.filesDir),
    tokens: createAccessTokenSigner(config.jwtSecret, config.accessTokenTtlSec),
    jobs: undefined as unknown as JobQueue,
    jobEvents: undefined as unknown as JobEventBus,
    jobSettings: jobSettingsFromEnv(),
    media: engineMedia,
    mailer: createMailer(config),
    closers: [() => db.destroy()],
  };
  await loadOperatorVoices(ctx);
  const redisUrl = config.redisUrl;
  ctx.jobEvents = redisUrl ? createRedisJobEvents(redisUrl, () => ctx.jobSettings) : createLocalJobEvents();
  ctx.jobs = createJobQueue(ctx, JOB_DEFINITIONS, JOB_RUNNER_HOOKS);
  // Closed in reverse: the runner stops (hands back its jobs) before events, mail and the database close.
  ctx.closers.push(
    () => ctx.mailer.close(),
    () => ctx.jobEvents.close(),
    () => ctx.jobs.stop(),
  );
  // The 12 catalogue actors exist from the first start (idempotent; safe when processes boot together).
  await seedActorCatalogue(ctx);
  return ctx;
}

export async function closeContext(ctx: AppContext): Promise<void> {
  for (const close of [...ctx.closers].reverse()) {
    await close().catch(() => undefined);
  }
}

/**
 * The operator's Piper voices, loaded and checked now so a bad file is said once, here, and never fails a render
 * (decision 211). Printed whatever LOG_LEVEL says: an operator who dropped a voice in needs to see its fate.
 */
async function loadOperatorVoices(ctx: AppContext): Promise<void> {
  const { loaded, refused } = await ctx.media.loadVoices(ctx.config.voicesDir);
  for (const v of loaded)
    console.log(
      `[voices] ${v.id} loaded from ${ctx.config.voicesDir} (word timings ${v.timing === 'durations' ? "from the model's phoneme durations" : 'estimated: the model gives no durations'})`,
    );
  for (const r of refused) console.warn(`[voices] refused ${r.file}: ${r.reason}`);
}
