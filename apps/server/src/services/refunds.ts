import type { RefundRequest } from '@hookreel/contracts';
import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';
import type { Executor } from '../db/database.ts';
import type { RefundRequestsTable } from '../db/tables/billing.ts';
import { conflict, notFound, unprocessable } from '../errors.ts';
import { isUniqueViolation } from '../db/database.ts';
import { fromHundredths, grantCredits } from './credits.ts';

export const REFUND_MESSAGES = {
  notCompleted: 'Only a finished job that was charged can be reported for a refund',
  alreadyRequested: 'A refund was already requested for this job',
  alreadyDecided: 'This refund request was already decided',
} as const;

type Row = Omit<RefundRequestsTable, 'id'> & { id: number; user_email: string };

const toDto = (r: Row): RefundRequest => ({
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

const selectRequests = (db: Executor) =>
  db
    .selectFrom('refund_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select('u.email as user_email');

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
  const hold =
    job.hold_id === null
      ? undefined
      : await db
          .selectFrom('credit_holds')
          .select(['amount', 'state'])
          .where('id', '=', job.hold_id)
          .executeTakeFirst();
  if (job.status !== 'completed' || !hold || hold.state !== 'captured')
    throw unprocessable(REFUND_MESSAGES.notCompleted);
  try {
    await db
      .insertInto('refund_requests')
      .values({
        user_id: userId,
        job_id: job.id,
        project_name: job.project_name,
        amount: hold.amount,
        reason: reason.trim(),
        state: 'pending',
        decision_note: null,
        decided_by: null,
        created_at: now(),
        decided_at: null,
      })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(REFUND_MESSAGES.alreadyRequested);
    throw err;
  }
  const row = await selectRequests(db).where('r.job_id', '=', job.id).executeTakeFirstOrThrow();
  return toDto(row);
}

/** GET /api/credits/refunds: the user's own requests, newest first. */
export async function listOwnRefunds(ctx: AppContext, userId: number): Promise<RefundRequest[]> {
  const rows = await selectRequests(ctx.db.kysely).where('r.user_id', '=', userId).orderBy('r.id', 'desc').execute();
  return rows.map(toDto);
}

/** GET /api/admin/refunds: pending first, then the latest decisions. */
export async function listRefundsForAdmin(ctx: AppContext): Promise<RefundRequest[]> {
  const rows = await selectRequests(ctx.db.kysely).orderBy('r.id', 'desc').limit(200).execute();
  return rows.map(toDto).sort((a, b) => Number(b.state === 'pending') - Number(a.state === 'pending'));
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
    const row = await trx.selectFrom('refund_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
    if (!row) throw notFound();
    const res = await trx
      .updateTable('refund_requests')
      .set({
        state: decision === 'approve' ? 'approved' : 'declined',
        decision_note: note?.trim() || null,
        decided_by: adminEmail,
        decided_at: now(),
      })
      .where('id', '=', requestId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict(REFUND_MESSAGES.alreadyDecided);
    if (decision === 'approve') {
      await grantCredits(trx, row.user_id, row.amount, `Refund: ${row.project_name}`, {
        kind: 'refund',
        jobId: row.job_id,
        ref: `refund-request:${row.id}`,
      });
    }
  });
  const row = await selectRequests(ctx.db.kysely).where('r.id', '=', requestId).executeTakeFirstOrThrow();
  return toDto(row);
}
