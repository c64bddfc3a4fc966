import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import { jobsRepository, type JobRow } from '../db/repositories/jobs.ts';
import { publicJobError } from './public-error.ts';
import { removeJobWorkDirs, sweepOrphanWorkDirs } from './work-dirs.ts';
import {
  assertJobDefinitions,
  decodePayload,
  laneOf,
  namesInLane,
  PermanentJobError,
  type AnyJobDefinition,
  type ClaimedJob,
  type JobContext,
  type JobDefinitionMap,
  type JobLane,
  type JobOutcome,
} from './definition.ts';
import type { JobRunnerHooks } from './hooks.ts';
import { retryDelayMs } from './settings.ts';
import { StageLog } from './stage-log.ts';
import { jobFilePrefix, jobPaidPrefix } from './files.ts';
import { addUsage, parseCost } from './cost.ts';

type AbortReason = 'cancelled' | 'lease-lost' | 'shutdown';

class JobAborted extends Error {
  constructor(readonly reason: AbortReason) {
    super(`job aborted: ${reason}`);
  }
}

interface Running {
  lane: JobLane;
  abort: AbortController;
  reason: AbortReason | null;
  done: Promise<void>;
}

const MAX_LOG_LINES = 200;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
/** What the job card and logs show: plain words, never server paths (see public-error.ts). */
const errorText = publicJobError;

/**
 * Claims and runs jobs from the jobs table; both dispatch backends (embedded poller, BullMQ worker) use it, so
 * the row is the source of truth in either mode. Every write after the claim is conditional on the lease.
 */
export class JobExecutor {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<number, Running>();
  private stopping = false;
  private readonly offCancel: () => void;
  private readonly workSweep: NodeJS.Timeout;
  /** Each lane's filter on jobs.name: background names only, or every name but those (see ClaimArgs.lane). */
  private readonly lanes: Record<JobLane, { names: string[]; except: boolean }>;

  constructor(
    private readonly ctx: AppContext,
    private readonly definitions: JobDefinitionMap,
    private readonly hooks: JobRunnerHooks,
    /** Called when a run ends with the row queued again (retry with delay, hand-back on shutdown). */
    private readonly onRequeue: (
      jobId: number,
      attempts: number,
      delayMs: number,
      name: string,
    ) => Promise<void> = async () => undefined,
  ) {
    assertJobDefinitions(definitions);
    const background = namesInLane(definitions, 'background');
    this.lanes = { background: { names: background, except: false }, render: { names: background, except: true } };
    this.offCancel = ctx.jobEvents.onCancel((jobId) => this.abort(jobId, 'cancelled'));
    // What a killed process left in DATA_DIR/work goes once this one starts taking jobs, and then every
    // JOB_WORK_SWEEP_MS, so a long-lived runner does not keep it until its next start (decision 181).
    const sweep = () =>
      void sweepOrphanWorkDirs(ctx).catch((err: unknown) => console.warn('[jobs] work directory sweep failed:', err));
    sweep();
    this.workSweep = setInterval(sweep, ctx.jobSettings.workSweepMs);
    this.workSweep.unref();
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** Jobs of `lane` running in this process. */
  runningIn(lane: JobLane): number {
    let n = 0;
    for (const r of this.running.values()) if (r.lane === lane) n++;
    return n;
  }

  laneOf(name: string): JobLane {
    return laneOf(this.definitions, name);
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  private claimArgs(lane?: JobLane) {
    return {
      owner: this.owner,
      now: now(),
      leaseUntil: at(this.ctx.jobSettings.leaseMs),
      lane: lane ? this.lanes[lane] : undefined,
    };
  }

  /** The next due job of `lane` (of any lane when none is given). */
  async claimNext(lane?: JobLane): Promise<JobRow | undefined> {
    if (this.stopping) return undefined;
    return jobsRepository.claimNext(this.ctx.db.kysely, this.ctx.db.dialect, this.claimArgs(lane));
  }

  /** The job, if it is claimable and (when given) in `lane`: a queue of one lane never runs another's job. */
  async claimById(id: number, lane?: JobLane): Promise<JobRow | undefined> {
    if (this.stopping) return undefined;
    return jobsRepository.claimById(this.ctx.db.kysely, id, this.claimArgs(lane));
  }

  /** Runs a claimed row to its end (completed, failed, retry scheduled, handed back or abandoned). */
  execute(row: JobRow): Promise<void> {
    const abort = new AbortController();
    const entry: Running = { lane: this.laneOf(row.name), abort, reason: null, done: Promise.resolve() };
    entry.done = this.run(row, entry)
      .catch((err: unknown) => {
        // The database failed mid-bookkeeping: leave the row to its lease; when it expires the job runs again.
        console.warn(`[jobs] job ${row.id} stopped without a recorded outcome: ${errorText(err)}`);
      })
      .finally(() => this.running.delete(row.id));
    this.running.set(row.id, entry);
    return entry.done;
  }

  abort(jobId: number, reason: AbortReason): void {
    const r = this.running.get(jobId);
    if (!r || r.abort.signal.aborted) return;
    r.reason = reason;
    r.abort.abort(new JobAborted(reason));
  }

  /**
   * Stops claiming, lets running jobs finish for up to `graceMs`, then aborts the rest, which hand their rows
   * back (status queued, lease cleared) for another runner.
   */
  async shutdown(graceMs = this.ctx.jobSettings.shutdownGraceMs): Promise<void> {
    this.stopping = true;
    clearInterval(this.workSweep);
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all(), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    for (const id of [...this.running.keys()]) this.abort(id, 'shutdown');
    await all();
    this.offCancel();
  }

  private async run(row: JobRow, entry: Running): Promise<void> {
    const { ctx } = this;
    const db = ctx.db.kysely;
    const signal = entry.abort.signal;
    const log = new StageLog(parseLogs(row.logs), MAX_LOG_LINES);
    const owner = this.owner;
    const publish = () => ctx.jobEvents.publish({ userId: row.user_id, jobId: row.id });

    // Heartbeat: extend the lease while running; if the row is gone or owned by someone else, stop the work.
    const heartbeat = setInterval(() => {
      jobsRepository
        .extendLease(db, row.id, owner, at(ctx.jobSettings.leaseMs))
        .then((ok) => {
          if (!ok) this.abort(row.id, 'lease-lost');
        })
        .catch(() => undefined); // a database hiccup is not a lost lease; the next beat tries again
    }, ctx.jobSettings.heartbeatMs);
    heartbeat.unref();

    const workDir = path.join(ctx.config.workDir, `job-${row.id}-${randomUUID().slice(0, 8)}`);
    try {
      // Holding the claim means no earlier attempt of this job is alive: whatever folders it left are garbage.
      await removeJobWorkDirs(ctx, row.id);
      log.note(row.attempts > 1 ? `Retrying (attempt ${row.attempts} of ${row.max_attempts})` : 'Processing started');
      await jobsRepository.updateLeased(db, row.id, owner, {
        logs: JSON.stringify(log.snapshot()),
        updated_at: now(),
      });
      publish();

      let outcome: JobOutcome;
      let job: ClaimedJob | null = null;
      const def = this.definitionOf(row);
      try {
        if (row.attempts > row.max_attempts) {
          throw new PermanentJobError(`Stopped after ${row.max_attempts} attempts`);
        }
        if (!def) throw new PermanentJobError(`Unknown job type: ${row.name}`);
        job = toClaimed(row, decodePayload(def, row.payload));
        await mkdir(workDir, { recursive: true });
        let lastProgress = row.progress;
        // Earlier attempts' provider calls were billed too: the total carries over.
        let cost = parseCost(row.cost);
        const progress = async (percent: number, line?: string) => {
          if (signal.aborted) throw signal.reason;
          if (line) log.stage(line);
          lastProgress = Math.max(0, Math.min(99, Math.round(percent)));
          const ok = await jobsRepository.updateLeased(db, row.id, owner, {
            progress: lastProgress,
            logs: JSON.stringify(log.snapshot()),
            updated_at: now(),
          });
          if (!ok) {
            this.abort(row.id, 'lease-lost');
            throw signal.reason;
          }
          publish();
        };
        const jobCtx: JobContext = {
          app: ctx,
          signal,
          workDir,
          outputKey: (file) => `${jobFilePrefix(row)}/${file}`,
          progress,
          log: (line) => progress(lastProgress, line),
          recordUsage: async (usage) => {
            if (signal.aborted) throw signal.reason;
            log.aside(ctx.media.describeUsage(usage));
            cost = addUsage(cost, usage);
            const ok = await jobsRepository.updateLeased(db, row.id, owner, {
              logs: JSON.stringify(log.snapshot()),
              cost: JSON.stringify(cost),
              updated_at: now(),
            });
            if (!ok) {
              this.abort(row.id, 'lease-lost');
              throw signal.reason;
            }
            publish();
          },
        };
        // Race the handler against the abort signal so a handler that ignores it cannot hold the runner.
        outcome = await Promise.race([
          def.handler(job, jobCtx),
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ]);
      } catch (err) {
        log.close();
        await this.onError(row, entry, log.snapshot(), err);
        return;
      }
      log.close();
      await this.complete(row, log.snapshot(), outcome, def, job);
    } finally {
      clearInterval(heartbeat);
      await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private definitionOf(row: JobRow): AnyJobDefinition | undefined {
    return Object.hasOwn(this.definitions, row.name) ? this.definitions[row.name] : undefined;
  }

  private async complete(
    row: JobRow,
    logs: string[],
    outcome: JobOutcome,
    def: AnyJobDefinition,
    job: ClaimedJob,
  ): Promise<void> {
    const { ctx } = this;
    const finished = now();
    const finalLogs = [...logs, outcome.logLine ?? 'Completed'].slice(-MAX_LOG_LINES);
    const done = await ctx.db.kysely.transaction().execute(async (trx) => {
      const ok = await jobsRepository.finishLeased(trx, row.id, this.owner, {
        status: 'completed',
        progress: 100,
        logs: JSON.stringify(finalLogs),
        video_key: outcome.videoKey ?? null,
        poster_key: outcome.posterKey ?? null,
        result: outcome.result === undefined ? null : JSON.stringify(outcome.result),
        error: null,
        updated_at: finished,
        finished_at: finished,
      });
      // Only the lease holder that marked the row completed captures; a deleted job's hold was released.
      if (ok && row.hold_id !== null) await this.hooks.settleHold(trx, row.hold_id, 'captured');
      if (ok && def.commit) await def.commit(trx, job, outcome);
      return ok;
    });
    if (!done) return;
    // Done: no retry will reuse what the attempts paid for.
    await ctx.files.deletePrefix(jobPaidPrefix(row)).catch(() => undefined);
    ctx.jobEvents.publish({ userId: row.user_id, jobId: row.id });
    await this.afterTerminal(row, 'completed');
  }

  private async onError(row: JobRow, entry: Running, logs: string[], err: unknown): Promise<void> {
    const { ctx } = this;
    const db = ctx.db.kysely;
    const reason = entry.reason;
    if (reason === 'cancelled') {
      // The row was deleted; remove anything the run wrote after the delete cleaned up.
      await ctx.files.deletePrefix(jobFilePrefix(row)).catch(() => undefined);
      await ctx.files.deletePrefix(jobPaidPrefix(row)).catch(() => undefined);
      return;
    }
    if (reason === 'lease-lost') return; // someone else owns the row now, or it is gone
    if (reason === 'shutdown') {
      const ok = await jobsRepository.finishLeased(db, row.id, this.owner, {
        status: 'queued',
        attempts: Math.max(0, row.attempts - 1),
        logs: JSON.stringify([...logs, 'Paused while the server restarts; will resume'].slice(-MAX_LOG_LINES)),
        run_after: now(),
        updated_at: now(),
      });
      if (ok) {
        ctx.jobEvents.publish({ userId: row.user_id, jobId: row.id });
        await this.onRequeue(row.id, Math.max(0, row.attempts - 1), 0, row.name).catch(() => undefined);
      }
      return;
    }

    const message = errorText(err);
    // The whole error, paths and stderr included, stays in the server log.
    console.warn(`[jobs] job ${row.id} attempt ${row.attempts} failed:`, err);
    const permanent = err instanceof PermanentJobError;
    if (!permanent && row.attempts < row.max_attempts) {
      const own = this.definitionOf(row)?.retryDelayMs;
      const delay = own ? own(row.attempts, ctx.jobSettings) : retryDelayMs(ctx.jobSettings, row.attempts);
      const ok = await jobsRepository.finishLeased(db, row.id, this.owner, {
        status: 'queued',
        error: message,
        logs: JSON.stringify(
          [...logs, `Attempt ${row.attempts} failed: ${message}. Retrying in ${Math.ceil(delay / 1000)} s`].slice(
            -MAX_LOG_LINES,
          ),
        ),
        run_after: at(delay),
        updated_at: now(),
      });
      if (ok) {
        ctx.jobEvents.publish({ userId: row.user_id, jobId: row.id });
        await this.onRequeue(row.id, row.attempts, delay, row.name).catch(() => undefined);
      }
      return;
    }

    const finished = now();
    const done = await db.transaction().execute(async (trx) => {
      const ok = await jobsRepository.finishLeased(trx, row.id, this.owner, {
        status: 'failed',
        error: message,
        logs: JSON.stringify([...logs, `Failed: ${message}`].slice(-MAX_LOG_LINES)),
        updated_at: finished,
        finished_at: finished,
      });
      if (ok && row.hold_id !== null) await this.hooks.settleHold(trx, row.hold_id, 'released');
      const def = this.definitionOf(row);
      const job = ok && def?.onGaveUp ? claimedIfReadable(row, def) : null;
      if (job && def?.onGaveUp) await def.onGaveUp(trx, job);
      return ok;
    });
    if (!done) return;
    // An earlier attempt may have stored outputs and died before completing; a failed job serves none of them,
    // and no retry is left to reuse what its attempts paid for.
    await ctx.files.deletePrefix(jobFilePrefix(row)).catch(() => undefined);
    await ctx.files.deletePrefix(jobPaidPrefix(row)).catch(() => undefined);
    ctx.jobEvents.publish({ userId: row.user_id, jobId: row.id });
    await this.afterTerminal(row, 'failed');
  }

  private async afterTerminal(row: JobRow, status: 'completed' | 'failed'): Promise<void> {
    if (this.hooks.afterJobEnded) {
      const ended = { id: row.id, userId: row.user_id, name: row.name, status, batchId: row.batch_id };
      await this.hooks.afterJobEnded(this.ctx, ended).catch((err: unknown) => {
        console.warn(`[jobs] after-job step failed for job ${row.id}: ${errorText(err)}`);
      });
    }
    if (!row.batch_id || !this.hooks.afterBatchJob) return;
    await this.hooks.afterBatchJob(this.ctx, row.batch_id).catch((err: unknown) => {
      console.warn(`[jobs] after-batch step failed for batch ${row.batch_id}: ${errorText(err)}`);
    });
  }
}

function parseLogs(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function toClaimed<P>(row: JobRow, payload: P): ClaimedJob<P> {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    payload,
    projectId: row.project_id,
    hookPackId: row.hook_pack_id,
    variantIndex: row.variant_index,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
  };
}

/** The claimed job when its payload still matches the schema; a corrupt one gets no feature clean-up. */
function claimedIfReadable(row: JobRow, def: AnyJobDefinition): ClaimedJob | null {
  try {
    return toClaimed(row, decodePayload(def, row.payload));
  } catch {
    return null;
  }
}
