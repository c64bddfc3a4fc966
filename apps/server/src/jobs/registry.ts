import type { ProviderUsage } from '@hookreel/engine';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';

/**
 * The one job-name registry. A job row's `name` is one of these values; every name has exactly one handler
 * (jobs/handlers/index.ts), checked when the runner is built.
 */
export const JOB_NAMES = {
  renderProjectVideo: 'render-project-video',
  mergeCharacter: 'merge-character',
  generateCharacters: 'generate-characters',
  generatePreview: 'generate-preview',
  renderHookVideo: 'render-hook-video',
  processProduct: 'process-product',
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];
export const ALL_JOB_NAMES: readonly JobName[] = Object.values(JOB_NAMES);
export const isJobName = (name: string): name is JobName => (ALL_JOB_NAMES as readonly string[]).includes(name);

/** Jobs that produce a video: they are what the jobs screens list and what the "videos ready" e-mail counts. */
export const VIDEO_JOB_NAMES: readonly JobName[] = [JOB_NAMES.renderProjectVideo, JOB_NAMES.renderHookVideo];

/** What a handler receives: ids and options only. Everything else is reloaded from the database. */
export interface ClaimedJob {
  id: number;
  userId: number;
  name: JobName;
  payload: Record<string, unknown>;
  projectId: number | null;
  hookPackId: number | null;
  variantIndex: number | null;
  /** 1 on the first run, 2 on the first retry… */
  attempt: number;
  maxAttempts: number;
}

export interface JobContext {
  app: AppContext;
  /** Aborted when the job is deleted, its lease is lost or the process shuts down. Pass it to long work. */
  signal: AbortSignal;
  /** A scratch directory for this run, removed afterwards. */
  workDir: string;
  /** Persists progress (0–100) and optionally appends a log line people understand; publishes an update. */
  progress(percent: number, logLine?: string): Promise<void>;
  log(line: string): Promise<void>;
  /**
   * Records one billable provider call at once (not at the end, so a run that fails later still shows it): a log
   * line such as "Provider cost: fal avatar (…) 8.4 s" and the job's `cost` total, kept across attempts.
   */
  recordUsage(usage: ProviderUsage): Promise<void>;
  /**
   * A deterministic, unguessable storage key under this job's prefix (users/<uid>/jobs/<jobId>-<token>/<file>):
   * a retry overwrites the same key, never adds a second file.
   */
  outputKey(fileName: string): string;
}

/** What a successful run leaves on the row. Credits are captured by the runner, not the handler. */
export interface JobOutcome {
  videoKey?: string | null;
  posterKey?: string | null;
  /** Small JSON-serialisable result for callers that poll the row (e.g. ids of created records). */
  result?: unknown;
  logLine?: string;
  /**
   * The feature's own writes that say "done" (e.g. a merge marked merged), made in the transaction that marks the
   * job completed: a run killed after its last write but before completing leaves no claim of success behind.
   */
  commit?: (trx: Executor) => Promise<void>;
}

export interface JobHandler {
  (job: ClaimedJob, ctx: JobContext): Promise<JobOutcome>;
  /**
   * Runs in the transaction that marks the job failed for good — its last attempt failed, it failed permanently,
   * or it was found past its attempts after a crash (when the handler never runs) — to put the feature's own rows
   * in a final state, so no screen waits for them. The job's stored outputs are deleted afterwards.
   */
  onGaveUp?: (trx: Executor, job: ClaimedJob) => Promise<void>;
}
export type JobHandlerMap = Record<JobName, JobHandler>;

/** A failure that retrying cannot fix (missing project, invalid input): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** Boot check: exactly one handler per registered name, and no handler for a name that is not registered. */
export function assertHandlerMap(map: Record<string, unknown>): asserts map is JobHandlerMap {
  const missing = ALL_JOB_NAMES.filter((n) => typeof map[n] !== 'function');
  const unknown = Object.keys(map).filter((k) => !isJobName(k));
  if (missing.length || unknown.length) {
    throw new Error(
      `Job handler registry is inconsistent: ${[
        missing.length ? `no handler for ${missing.join(', ')}` : '',
        unknown.length ? `handlers without a registered name: ${unknown.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ')}`,
    );
  }
}
