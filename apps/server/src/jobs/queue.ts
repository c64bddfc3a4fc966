import type { AppContext } from '../context.ts';
import { createBullmqQueue } from './bullmq-queue.ts';
import { createEmbeddedQueue } from './embedded-queue.ts';
import { assertJobDefinitions, type JobDefinitionMap } from './definition.ts';
import type { JobRunnerHooks } from './hooks.ts';
import { sweepStaleUploadDirs } from './work-dirs.ts';

/**
 * Dispatch of jobs whose rows already exist. Two backends behind this one interface: the embedded runner polls
 * the jobs table; scale mode carries ids over BullMQ. Either way the row is the source of truth.
 */
export interface JobQueue extends JobBackend {
  /** The names of the jobs that make a video (marked `video: true` on their definition): what the jobs screens list. */
  readonly videoJobNames: readonly string[];
}

/** One way of dispatching jobs; createJobQueue adds what every backend shares. */
export interface JobBackend {
  readonly backend: 'embedded' | 'bullmq';
  /** Call after the transaction that inserted the rows has committed. Never throws: a lost id is swept up. */
  enqueue(jobIds: number | readonly number[]): Promise<void>;
  /** Starts running jobs in this process when config.runJobs is on; otherwise only enqueues. */
  start(): Promise<void>;
  /** Graceful: running jobs finish within the grace period or are handed back to the queue. */
  stop(): Promise<void>;
}

/** The runner for every job in `definitions` (job-definitions.ts), checked here at boot. */
export function createJobQueue(ctx: AppContext, definitions: JobDefinitionMap, hooks: JobRunnerHooks): JobQueue {
  assertJobDefinitions(definitions);
  const queue = ctx.config.redisUrl
    ? createBullmqQueue(ctx, ctx.config.redisUrl, definitions, hooks)
    : createEmbeddedQueue(ctx, definitions, hooks);
  const backend = ctx.config.runJobs ? queue : withUploadSweep(ctx, queue);
  const videoJobNames = Object.values(definitions)
    .filter((d) => d.video === true)
    .map((d) => d.name);
  return Object.assign(backend, { videoJobNames });
}

/**
 * A process that runs no jobs (an API process in scale mode) still checks uploads in DATA_DIR/work: it sweeps
 * the upload folders a killed predecessor left, at start and every JOB_WORK_SWEEP_MS (decision 181).
 */
function withUploadSweep(ctx: AppContext, queue: JobBackend): JobBackend {
  let timer: NodeJS.Timeout | null = null;
  const sweep = () => void sweepStaleUploadDirs(ctx).catch(() => undefined);
  return {
    backend: queue.backend,
    enqueue: (ids) => queue.enqueue(ids),
    async start() {
      await queue.start();
      if (timer) return;
      sweep();
      timer = setInterval(sweep, ctx.jobSettings.workSweepMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await queue.stop();
    },
  };
}
