import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';

/**
 * What the runner does around every job without knowing the areas that do it: settling the credit hold a job
 * was created with, and the step after a job of a batch ends. Wired once in job-definitions.ts, so the runner
 * imports no service.
 */
export interface JobRunnerHooks {
  /** In the transaction that ends the job: its hold is captured on success, released on failure. Idempotent. */
  settleHold(trx: Executor, holdId: number, state: 'captured' | 'released'): Promise<unknown>;
  /** After the transaction that ended a job of a batch has committed (e.g. the "videos ready" e-mail). */
  afterBatchJob?(ctx: AppContext, batchId: string): Promise<unknown>;
  /** After the transaction that ended any job has committed (e.g. webhooks for finished videos). */
  afterJobEnded?(ctx: AppContext, job: EndedJob): Promise<unknown>;
}

export interface EndedJob {
  id: number;
  userId: number;
  name: string;
  status: 'completed' | 'failed';
  batchId: string | null;
}
