import type { AppContext } from '../context.ts';
import { JobExecutor } from './executor.ts';
import type { JobBackend } from './queue.ts';
import { JOB_LANES, type JobDefinitionMap, type JobLane } from './definition.ts';
import type { JobRunnerHooks } from './hooks.ts';

/**
 * The embedded default: an in-process durable runner over the jobs table. It polls for claimable rows and is
 * woken at once by enqueue in this process; each lane has its own slots (WORKER_CONCURRENCY for renders,
 * BACKGROUND_JOB_CONCURRENCY for background work); leases and heartbeats make it safe to run several of these against
 * one PostgreSQL database, and a crashed runner's jobs are picked up when their leases expire.
 */
export function createEmbeddedQueue(ctx: AppContext, definitions: JobDefinitionMap, hooks: JobRunnerHooks): JobBackend {
  let executor: JobExecutor | null = null;
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  let again = false;
  /** One warning per database outage, not one per poll. */
  let claimFailing = false;
  const slots: Record<JobLane, number> = {
    render: ctx.config.workerConcurrency,
    background: ctx.config.backgroundJobConcurrency,
  };

  const tick = async (): Promise<void> => {
    if (!executor || executor.isStopping) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    try {
      do {
        again = false;
        // Renders first, then the background lane: each fills only its own slots, so a flood of webhook
        // deliveries waits for background slots and never for (or in) the renders' (issue #33).
        for (const lane of JOB_LANES) {
          while (executor && !executor.isStopping && executor.runningIn(lane) < slots[lane]) {
            const row = await executor.claimNext(lane);
            if (claimFailing) {
              claimFailing = false;
              console.warn('[jobs] claiming works again');
            }
            if (!row) break;
            void executor.execute(row).finally(() => void tick());
          }
        }
      } while (again);
    } catch (err) {
      if (!executor?.isStopping && !claimFailing) {
        console.warn(`[jobs] claim failed (retrying every poll until the database answers): ${(err as Error).message}`);
      }
      claimFailing = true;
    } finally {
      ticking = false;
    }
  };

  return {
    backend: 'embedded',
    async enqueue() {
      if (executor) setImmediate(() => void tick());
    },
    async start() {
      if (executor || !ctx.config.runJobs) return;
      executor = new JobExecutor(ctx, definitions, hooks, async (_id, _attempts, delayMs) => {
        // A retry becomes due after its delay; wake then rather than waiting for the next poll.
        if (delayMs > 0) setTimeout(() => void tick(), delayMs + 5).unref();
      });
      timer = setInterval(() => void tick(), ctx.jobSettings.pollMs);
      timer.unref();
      void tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      const ex = executor;
      if (!ex) return;
      await ex.shutdown();
      executor = null;
    },
  };
}
