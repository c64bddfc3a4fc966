import type { AppContext } from '../context.ts';
import { createBullmqQueue } from './bullmq-queue.ts';
import { createEmbeddedQueue } from './embedded-queue.ts';
import { JOB_HANDLERS } from './handlers/index.ts';
import { assertHandlerMap, type JobHandlerMap } from './registry.ts';

/**
 * Dispatch of jobs whose rows already exist. Two backends behind this one interface: the embedded runner polls
 * the jobs table; scale mode carries ids over BullMQ. Either way the row is the source of truth.
 */
export interface JobQueue {
  readonly backend: 'embedded' | 'bullmq';
  /** Call after the transaction that inserted the rows has committed. Never throws: a lost id is swept up. */
  enqueue(jobIds: number | readonly number[]): Promise<void>;
  /** Starts running jobs in this process when config.runJobs is on; otherwise only enqueues. */
  start(): Promise<void>;
  /** Graceful: running jobs finish within the grace period or are handed back to the queue. */
  stop(): Promise<void>;
}

export function createJobQueue(ctx: AppContext, handlers: JobHandlerMap = JOB_HANDLERS): JobQueue {
  assertHandlerMap(handlers);
  return ctx.config.redisUrl
    ? createBullmqQueue(ctx, ctx.config.redisUrl, handlers)
    : createEmbeddedQueue(ctx, handlers);
}
