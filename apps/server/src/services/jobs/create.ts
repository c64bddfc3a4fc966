import { randomBytes, randomUUID } from 'node:crypto';
import { INSUFFICIENT_CREDITS, PRICES, type PricedOperation } from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import type { Database } from '../../db/schema.ts';
import { encodePayload, type JobDefinition } from '../../jobs/definition.ts';
import type { JobName } from '../../job-definitions.ts';
import { reserveCredits, toHundredths } from '../billing/index.ts';

/** The 402 message per priced operation (docs/product.md#messages). */
const INSUFFICIENT_MESSAGE: Record<PricedOperation, string> = {
  video: INSUFFICIENT_CREDITS.videos,
  characterGeneration: INSUFFICIENT_CREDITS.characters,
  previewImage: INSUFFICIENT_CREDITS.previews,
  merge: INSUFFICIENT_CREDITS.merge,
  photorealActor: INSUFFICIENT_CREDITS.photoreal,
  mouthStill: INSUFFICIENT_CREDITS.mouthStills,
};

export interface NewJob<P> {
  userId: number;
  /** Ids and options only, checked against the job's schema here; handlers reload everything else. */
  payload: P;
  /** Display name on job cards (contracts Job.project_name). */
  projectName: string;
  projectId?: number | null;
  hookPackId?: number | null;
  variantIndex?: number | null;
  /** Who is in the video and which video of a pack it is, as the UI shows them (see job-labels migration). */
  labels?: {
    actorName?: string | null;
    variantLabel?: string | null;
    hookText?: string | null;
    variantId?: string | null;
  };
  /**
   * Reserve `units` × PRICES[price] credits for this job under one hold (402 with the message for the operation,
   * or `insufficientMessage`, when the balance is short). The runner captures it on success, releases it on failure.
   */
  price?: PricedOperation;
  /** How many priced items the job makes (e.g. 4 previews in one job); 1 when absent. */
  units?: number;
  /**
   * The exact credits to hold instead of `units` × PRICES[price] (a Realistic video, priced by its length); `price`
   * still names the operation for the 402 message. Zero holds nothing.
   */
  credits?: number;
  insufficientMessage?: string;
  /** Jobs of one request share a batch id: one "videos ready" e-mail per batch. */
  batchId?: string | null;
  idempotencyKey?: string | null;
  maxAttempts?: number;
}

/**
 * The one way to create a job: its payload is checked against the definition's schema (a bad one is refused
 * before anything is written), its credits are reserved, and the row is inserted, all inside the caller's
 * transaction, so the job and its hold commit together or not at all. Call `ctx.jobs.enqueue(ids)` after the
 * transaction commits (or use submitJobs).
 */
export async function createJob<P>(
  trx: Transaction<Database>,
  job: JobDefinition<JobName, P>,
  spec: NewJob<NoInfer<P>>,
): Promise<number> {
  const payload = encodePayload(job, spec.payload);
  const units = spec.units ?? 1;
  if (!Number.isSafeInteger(units) || units < 1)
    throw new Error(`A job holds credits for at least one unit, not ${units}`);
  const amount =
    spec.price === undefined
      ? 0
      : spec.credits !== undefined
        ? toHundredths(spec.credits)
        : toHundredths(PRICES[spec.price]) * units;
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`A job cannot hold ${spec.credits} credits`);
  const holdId =
    spec.price !== undefined && amount > 0
      ? await reserveCredits(
          trx,
          spec.userId,
          amount,
          job.name,
          spec.insufficientMessage ?? INSUFFICIENT_MESSAGE[spec.price],
        )
      : null;
  const t = now();
  return jobsRepository.insert(trx, {
    user_id: spec.userId,
    name: job.name,
    project_id: spec.projectId ?? null,
    hook_pack_id: spec.hookPackId ?? null,
    variant_index: spec.variantIndex ?? null,
    project_name: spec.projectName,
    actor_name: spec.labels?.actorName ?? null,
    variant_label: spec.labels?.variantLabel ?? null,
    hook_text: spec.labels?.hookText ?? null,
    variant_id: spec.labels?.variantId ?? null,
    status: 'queued',
    progress: 0,
    payload,
    logs: JSON.stringify(['Queued']),
    result: null,
    video_key: null,
    poster_key: null,
    error: null,
    attempts: 0,
    max_attempts: spec.maxAttempts ?? 3,
    lease_owner: null,
    lease_expires_at: null,
    run_after: t,
    hold_id: holdId,
    idempotency_key: spec.idempotencyKey ?? null,
    file_token: randomBytes(12).toString('base64url'),
    batch_id: spec.batchId ?? null,
    notified_at: null,
    created_at: t,
    updated_at: t,
  });
}

/**
 * Runs `build` in one transaction (create jobs with createJob there, alongside the feature's own rows), then
 * after commit dispatches the new jobs and tells event listeners. Returns what `build` returned.
 */
export async function submitJobs<T extends { jobIds: number[] }>(
  ctx: AppContext,
  userId: number,
  build: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const out = await ctx.db.kysely.transaction().execute(build);
  for (const id of out.jobIds) ctx.jobEvents.publish({ userId, jobId: id });
  await ctx.jobs.enqueue(out.jobIds);
  return out;
}

export const newBatchId = (): string => randomUUID();
