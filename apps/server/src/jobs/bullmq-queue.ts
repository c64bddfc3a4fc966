import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';
import { JobExecutor } from './executor.ts';
import type { JobBackend } from './queue.ts';
import type { JobDefinitionMap } from './definition.ts';
import type { JobRunnerHooks } from './hooks.ts';

const QUEUE_NAME = 'jobs';
/**
 * How long one hand-off to Redis may take. BullMQ waits for a connection that never became ready without
 * limit (Redis down when the process started), which would hang the request that enqueues; the row is already
 * committed and the sweep re-sends whatever this gave up on, so the caller moves on.
 */
const ADD_TIMEOUT_MS = 3_000;

function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface Message {
  jobId: number;
}

/**
 * Scale mode: BullMQ on Redis carries job ids only. A worker that receives an id claims the row with a lease
 * (the same executor as the embedded runner), so a duplicate or stale delivery is a no-op. Retries and delays
 * are the row's business: BullMQ runs each message once. A sweeper in every worker re-enqueues rows the queue
 * lost (a crashed worker's expired lease, an enqueue that failed after the row committed).
 */
export function createBullmqQueue(
  ctx: AppContext,
  redisUrl: string,
  definitions: JobDefinitionMap,
  hooks: JobRunnerHooks,
): JobBackend {
  let queue: Queue<Message> | null = null;
  let queueConn: Redis | null = null;
  let worker: Worker<Message> | null = null;
  let workerConn: Redis | null = null;
  let executor: JobExecutor | null = null;
  let sweeper: NodeJS.Timeout | null = null;

  const getQueue = () => {
    if (!queue) {
      // maxRetriesPerRequest: a hand-off fails (and is left to the sweep) rather than piling up during an outage.
      const conn = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
      conn.on('error', () => undefined);
      const q = new Queue<Message>(QUEUE_NAME, { connection: conn, prefix: ctx.jobSettings.redisPrefix });
      q.on('error', () => undefined);
      // BullMQ readies a connection once (ready check, then its own version check) and keeps the outcome: if
      // Redis drops between the two, every later add fails even after Redis is back. Drop such a queue; the
      // next hand-off builds a new one.
      q.waitUntilReady().catch(() => {
        if (queue !== q) return;
        queue = null;
        queueConn = null;
        void q.close().catch(() => undefined);
        conn.disconnect();
      });
      queue = q;
      queueConn = conn;
    }
    return queue;
  };

  /** The BullMQ id dedupes deliveries of one attempt; `unique` adds a fresh one (hand-back after shutdown). */
  const add = async (jobId: number, attempts: number, delayMs = 0, unique = false) => {
    const id = `j${jobId}-a${attempts}${unique ? `-${Date.now().toString(36)}` : ''}`;
    await bounded(
      getQueue().add(
        'run',
        { jobId },
        { jobId: id, delay: delayMs, attempts: 1, removeOnComplete: true, removeOnFail: true },
      ),
      ADD_TIMEOUT_MS,
      'enqueue on Redis',
    );
  };

  const sweep = async () => {
    if (!executor || executor.isStopping) return;
    const rows = await jobsRepository.claimableIds(ctx.db.kysely, now(), 200);
    for (const r of rows) await add(r.id, r.attempts);
  };

  return {
    backend: 'bullmq',
    async enqueue(jobIds) {
      const ids = typeof jobIds === 'number' ? [jobIds] : jobIds;
      for (const id of ids) {
        await add(id, 0).catch((err: unknown) => {
          console.warn(
            `[jobs] enqueue of job ${id} failed (a worker's sweep will pick it up): ${(err as Error).message}`,
          );
        });
      }
    },
    async start() {
      if (worker || !ctx.config.runJobs) return;
      executor = new JobExecutor(ctx, definitions, hooks, async (jobId, attempts, delayMs) => {
        await add(jobId, attempts, delayMs, delayMs === 0);
      });
      const ex = executor;
      workerConn = new Redis(redisUrl, { maxRetriesPerRequest: null });
      workerConn.on('error', () => undefined);
      worker = new Worker<Message>(
        QUEUE_NAME,
        async (message) => {
          const jobId = Number(message.data.jobId);
          if (!Number.isSafeInteger(jobId)) return;
          if (ex.isStopping) {
            await add(jobId, 0, 0, true);
            return;
          }
          const row = await ex.claimById(jobId);
          if (!row) return; // done, deleted, not yet due, or running elsewhere under a live lease
          await ex.execute(row);
        },
        {
          connection: workerConn,
          prefix: ctx.jobSettings.redisPrefix,
          concurrency: ctx.config.workerConcurrency,
          // Our lease, not BullMQ's lock, decides who owns a job; keep BullMQ from re-delivering long renders.
          lockDuration: Math.max(30_000, ctx.jobSettings.leaseMs),
          maxStalledCount: 1,
        },
      );
      worker.on('error', () => undefined);
      sweeper = setInterval(() => void sweep().catch(() => undefined), ctx.jobSettings.sweepMs);
      sweeper.unref();
      void sweep().catch(() => undefined);
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      if (executor && worker) {
        // Stop fetching, let running jobs finish or hand back (which re-enqueues), then close the worker.
        const w = worker;
        await Promise.all([executor.shutdown(), w.close()]);
      }
      worker = null;
      executor = null;
      await workerConn?.quit().catch(() => undefined);
      workerConn = null;
      await queue?.close().catch(() => undefined);
      await queueConn?.quit().catch(() => undefined);
      queue = null;
      queueConn = null;
    },
  };
}
