import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';
import { JobExecutor } from './executor.ts';
import type { JobBackend } from './queue.ts';
import { JOB_LANES, laneOf, type JobDefinitionMap, type JobLane } from './definition.ts';
import type { JobRunnerHooks } from './hooks.ts';

/** One BullMQ queue per lane, each with its own workers: background work never takes a render's slot. */
export const QUEUE_NAMES: Record<JobLane, string> = { render: 'jobs', background: 'jobs-background' };
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
 * are the row's business: BullMQ runs each message once. Each lane has its own queue (`jobs` for renders,
 * `jobs-background` for webhook deliveries) and worker, with WORKER_CONCURRENCY and BACKGROUND_JOB_CONCURRENCY
 * slots; a message on the wrong lane's queue is not claimed (the sweep re-sends it). A sweeper in every worker re-enqueues rows the queue
 * lost (a crashed worker's expired lease, an enqueue that failed after the row committed).
 */
export function createBullmqQueue(
  ctx: AppContext,
  redisUrl: string,
  definitions: JobDefinitionMap,
  hooks: JobRunnerHooks,
): JobBackend {
  const queues: Record<JobLane, { queue: Queue<Message>; conn: Redis } | null> = { render: null, background: null };
  let workers: Array<Worker<Message>> = [];
  let workerConns: Redis[] = [];
  let executor: JobExecutor | null = null;
  let sweeper: NodeJS.Timeout | null = null;

  const getQueue = (lane: JobLane) => {
    const held = queues[lane];
    if (held) return held.queue;
    // maxRetriesPerRequest: a hand-off fails (and is left to the sweep) rather than piling up during an outage.
    const conn = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    conn.on('error', () => undefined);
    const q = new Queue<Message>(QUEUE_NAMES[lane], { connection: conn, prefix: ctx.jobSettings.redisPrefix });
    q.on('error', () => undefined);
    // BullMQ readies a connection once (ready check, then its own version check) and keeps the outcome: if
    // Redis drops between the two, every later add fails even after Redis is back. Drop such a queue; the
    // next hand-off builds a new one.
    q.waitUntilReady().catch(() => {
      if (queues[lane]?.queue !== q) return;
      queues[lane] = null;
      void q.close().catch(() => undefined);
      conn.disconnect();
    });
    queues[lane] = { queue: q, conn };
    return q;
  };

  /** The BullMQ id dedupes deliveries of one attempt; `unique` adds a fresh one (hand-back after shutdown). */
  const add = async (jobId: number, name: string, attempts: number, delayMs = 0, unique = false) => {
    const id = `j${jobId}-a${attempts}${unique ? `-${Date.now().toString(36)}` : ''}`;
    await bounded(
      getQueue(laneOf(definitions, name)).add(
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
    for (const r of rows) await add(r.id, r.name, r.attempts);
  };

  return {
    backend: 'bullmq',
    async enqueue(jobIds) {
      const ids = typeof jobIds === 'number' ? [jobIds] : jobIds;
      // Which queue carries an id depends on its job's lane; a failed look-up leaves the ids to the sweep.
      const names = await jobsRepository.namesOf(ctx.db.kysely, ids).catch((err: unknown) => {
        console.warn(`[jobs] enqueue of jobs ${ids.join(', ')} failed (the sweep will pick them up): ${String(err)}`);
        return null;
      });
      if (!names) return;
      for (const id of ids) {
        const name = names.get(id);
        if (name === undefined) continue; // deleted before it was dispatched
        await add(id, name, 0).catch((err: unknown) => {
          console.warn(
            `[jobs] enqueue of job ${id} failed (a worker's sweep will pick it up): ${(err as Error).message}`,
          );
        });
      }
    },
    async start() {
      if (workers.length || !ctx.config.runJobs) return;
      executor = new JobExecutor(ctx, definitions, hooks, async (jobId, attempts, delayMs, name) => {
        await add(jobId, name, attempts, delayMs, delayMs === 0);
      });
      const ex = executor;
      const slots: Record<JobLane, number> = {
        render: ctx.config.workerConcurrency,
        background: ctx.config.backgroundJobConcurrency,
      };
      workers = JOB_LANES.map((lane) => {
        // One connection per lane's worker, as the single worker had before lanes: with both workers on one client
        // a Redis-restart test once ended with an unhandled connection error.
        const conn = new Redis(redisUrl, { maxRetriesPerRequest: null });
        conn.on('error', () => undefined);
        workerConns.push(conn);
        const w = new Worker<Message>(
          QUEUE_NAMES[lane],
          async (message) => {
            const jobId = Number(message.data.jobId);
            if (!Number.isSafeInteger(jobId)) return;
            if (ex.isStopping) {
              const row = await jobsRepository.findById(ctx.db.kysely, jobId);
              if (row) await add(jobId, row.name, 0, 0, true);
              return;
            }
            const row = await ex.claimById(jobId, lane);
            if (!row) return; // done, deleted, not yet due, another lane's, or running elsewhere under a live lease
            await ex.execute(row);
          },
          {
            connection: conn,
            prefix: ctx.jobSettings.redisPrefix,
            concurrency: slots[lane],
            // Our lease, not BullMQ's lock, decides who owns a job; keep BullMQ from re-delivering long renders.
            lockDuration: Math.max(30_000, ctx.jobSettings.leaseMs),
            maxStalledCount: 1,
          },
        );
        w.on('error', () => undefined);
        return w;
      });
      sweeper = setInterval(() => void sweep().catch(() => undefined), ctx.jobSettings.sweepMs);
      sweeper.unref();
      void sweep().catch(() => undefined);
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      if (executor && workers.length) {
        // Stop fetching, let running jobs finish or hand back (which re-enqueues), then close the workers.
        await Promise.all([executor.shutdown(), ...workers.map((w) => w.close())]);
      }
      workers = [];
      executor = null;
      const conns = workerConns;
      workerConns = [];
      await Promise.all(conns.map((c) => c.quit().catch(() => undefined)));
      for (const lane of JOB_LANES) {
        const held = queues[lane];
        queues[lane] = null;
        await held?.queue.close().catch(() => undefined);
        await held?.conn.quit().catch(() => undefined);
      }
    },
  };
}
