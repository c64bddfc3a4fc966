import type { Selectable } from 'kysely';
import { now, type Executor } from '../database.ts';
import type { RefundRequestsTable } from '../tables/billing.ts';

/** A refund request with the address of the user who asked, as the screens list them. */
export type RefundRequestRow = Selectable<RefundRequestsTable> & { user_email: string };

const selectRequests = (db: Executor) =>
  db
    .selectFrom('refund_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select('u.email as user_email');

/** Refund requests: one per charged job, decided once by an administrator. */
export const refundsRepository = {
  /** The amount and state of a job's credit hold, or undefined when it has none. */
  async holdOf(db: Executor, holdId: number): Promise<{ amount: number; state: string } | undefined> {
    return db.selectFrom('credit_holds').select(['amount', 'state']).where('id', '=', holdId).executeTakeFirst();
  },

  /** Throws the database's unique violation when the job already has a request. */
  async insert(
    db: Executor,
    r: { user_id: number; job_id: number; project_name: string; amount: number; reason: string },
  ): Promise<void> {
    await db
      .insertInto('refund_requests')
      .values({
        ...r,
        state: 'pending',
        decision_note: null,
        decided_by: null,
        created_at: now(),
        decided_at: null,
      })
      .execute();
  },

  async findById(db: Executor, id: number) {
    return db.selectFrom('refund_requests').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async withEmailById(db: Executor, id: number): Promise<RefundRequestRow> {
    return selectRequests(db).where('r.id', '=', id).executeTakeFirstOrThrow();
  },

  async withEmailByJob(db: Executor, jobId: number): Promise<RefundRequestRow> {
    return selectRequests(db).where('r.job_id', '=', jobId).executeTakeFirstOrThrow();
  },

  /** The user's own requests, newest first. */
  async ofUser(db: Executor, userId: number): Promise<RefundRequestRow[]> {
    return selectRequests(db).where('r.user_id', '=', userId).orderBy('r.id', 'desc').execute();
  },

  /** The latest requests of everyone, newest first. */
  async latest(db: Executor, limit: number): Promise<RefundRequestRow[]> {
    return selectRequests(db).orderBy('r.id', 'desc').limit(limit).execute();
  },

  /** Pending → decided, once: false when it was already decided. */
  async decide(
    db: Executor,
    id: number,
    d: { state: 'approved' | 'declined'; decision_note: string | null; decided_by: string },
  ): Promise<boolean> {
    const res = await db
      .updateTable('refund_requests')
      .set({ ...d, decided_at: now() })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },
};
