import type { RefundRequest } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { refundsRepository, type RefundRequestRow } from '../../db/repositories/refunds.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import { fromHundredths, grantCredits } from './credits.ts';

export const REFUND_MESSAGES = {
  notCompleted: 'Only a finished job that was charged can be reported for a refund',
  alreadyRequested: 'A refund was already requested for this job',
  alreadyDecided: 'This refund request was already decided',
} as const;

const toDto = (r: RefundRequestRow): RefundRequest => ({
  id: r.id,
  job_id: r.job_id,
  user_email: r.user_email,
  project_name: r.project_name,
  amount: fromHundredths(r.amount),
  reason: r.reason,
  state: r.state,
  decision_note: r.decision_note,
  created_at: r.created_at,
  decided_at: r.decided_at,
});

/**
 * POST /api/jobs/{id}/refund-request: a completed, charged job that came out wrong. One request per job; an
 * administrator approves (the captured credits return as a refund) or declines it.
 */
export async function requestRefund(
  ctx: AppContext,
  userId: number,
  jobId: number,
  reason: string,
): Promise<RefundRequest> {
  const db = ctx.db.kysely;
  const job = await jobsRepository.findOwned(db, userId, jobId);
  if (!job) throw notFound();
  const hold = job.hold_id === null ? undefined : await refundsRepository.holdOf(db, job.hold_id);
  if (job.status !== 'completed' || !hold || hold.state !== 'captured')
    throw unprocessable(REFUND_MESSAGES.notCompleted);
  try {
    await refundsRepository.insert(db, {
      user_id: userId,
      job_id: job.id,
      project_name: job.project_name,
      amount: hold.amount,
      reason: reason.trim(),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(REFUND_MESSAGES.alreadyRequested);
    throw err;
  }
  return toDto(await refundsRepository.withEmailByJob(db, job.id));
}

/** GET /api/credits/refunds: the user's own requests, newest first. */
export async function listOwnRefunds(ctx: AppContext, userId: number): Promise<RefundRequest[]> {
  return (await refundsRepository.ofUser(ctx.db.kysely, userId)).map(toDto);
}

/** GET /api/admin/refunds: pending first, then the latest decisions. */
export async function listRefundsForAdmin(ctx: AppContext): Promise<RefundRequest[]> {
  return (await refundsRepository.latest(ctx.db.kysely, 200))
    .map(toDto)
    .sort((a, b) => Number(b.state === 'pending') - Number(a.state === 'pending'));
}

/**
 * POST /api/admin/refunds/{id}: approve returns the job's captured credits as a `refund` ledger row; decline
 * only records the decision. The pending → decided flip is one conditional UPDATE, so it happens once.
 */
export async function decideRefund(
  ctx: AppContext,
  adminEmail: string,
  requestId: number,
  decision: 'approve' | 'decline',
  note?: string,
): Promise<RefundRequest> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await refundsRepository.findById(trx, requestId);
    if (!row) throw notFound();
    const decided = await refundsRepository.decide(trx, requestId, {
      state: decision === 'approve' ? 'approved' : 'declined',
      decision_note: note?.trim() || null,
      decided_by: adminEmail,
    });
    if (!decided) throw conflict(REFUND_MESSAGES.alreadyDecided);
    if (decision === 'approve') {
      await grantCredits(trx, row.user_id, row.amount, `Refund: ${row.project_name}`, {
        kind: 'refund',
        jobId: row.job_id,
        ref: `refund-request:${row.id}`,
      });
    }
  });
  return toDto(await refundsRepository.withEmailById(ctx.db.kysely, requestId));
}
