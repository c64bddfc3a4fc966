import type { AppContext } from '../context.ts';
import { createBullmqQueue } from './bullmq-queue.ts';
import { createEmbeddedQueue } from './embedded-queue.ts';
import { assertJobDefinitions, type JobDefinitionMap } from './definition.ts';
import type { JobRunnerHooks } from './hooks.ts';

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
  const backend = ctx.config.redisUrl
    ? createBullmqQueue(ctx, ctx.config.redisUrl, definitions, hooks)
    : createEmbeddedQueue(ctx, definitions, hooks);
  const videoJobNames = Object.values(definitions)
    .filter((d) => d.video === true)
    .map((d) => d.name);
  return Object.assign(backend, { videoJobNames });
}
