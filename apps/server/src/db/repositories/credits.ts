import type { LedgerKind } from '@hookreel/contracts';
import { now, type DialectName, type Executor } from '../database.ts';

/**
 * Credit movements. Each balance change is one conditional UPDATE, so it is atomic in SQLite and PostgreSQL
 * alike without explicit row locks: the WHERE clause is the check and the write at once.
 */
export const creditsRepository = {
  /** The database's own salt for hashing trial addresses (made by a migration, never changed). */
  async trialEmailSalt(db: Executor): Promise<string> {
    const salt = await db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'trial_email_salt')
      .executeTakeFirstOrThrow();
    return salt.value;
  },

  /** Claims the trial for a mailbox's key; false when it was claimed before (by any account, even a deleted one). */
  async claimTrial(db: Executor, emailHash: string, at: string): Promise<boolean> {
    const claimed = await db
      .insertInto('trial_claims')
      .values({ email_hash: emailHash, created_at: at })
      .onConflict((oc) => oc.column('email_hash').doNothing())
      .returning('email_hash')
      .executeTakeFirst();
    return claimed !== undefined;
  },

  async trialClaimed(db: Executor, emailHash: string): Promise<boolean> {
    const row = await db
      .selectFrom('trial_claims')
      .select('email_hash')
      .where('email_hash', '=', emailHash)
      .executeTakeFirst();
    return row !== undefined;
  },

  async addAvailable(db: Executor, userId: number, amount: number): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({ credits_available: eb('credits_available', '+', amount), updated_at: now() }))
      .where('id', '=', userId)
      .execute();
  },

  /**
   * The spendable balance, locked on PostgreSQL until the transaction ends so holds that follow in it see this
   * figure (SQLite runs one transaction at a time).
   */
  async availableLocked(db: Executor, dialect: DialectName, userId: number): Promise<number> {
    let q = db.selectFrom('users').select('credits_available').where('id', '=', userId);
    if (dialect === 'postgres') q = q.forUpdate();
    return (await q.executeTakeFirst())?.credits_available ?? 0;
  },

  /** Moves `amount` from available to held if the user has it; false when they do not. */
  async moveAvailableToHeld(db: Executor, userId: number, amount: number): Promise<boolean> {
    return spendAvailable(db, userId, amount, true);
  },

  async createHold(db: Executor, userId: number, amount: number, operation: string): Promise<number> {
    const row = await db
      .insertInto('credit_holds')
      .values({ user_id: userId, amount, state: 'held', operation, created_at: now(), resolved_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },

  /** Flips a hold from held to its final state; returns the hold only for the one caller that flipped it. */
  async resolveHold(
    db: Executor,
    holdId: number,
    state: 'captured' | 'released',
  ): Promise<{ user_id: number; amount: number } | null> {
    const res = await db
      .updateTable('credit_holds')
      .set({ state, resolved_at: now() })
      .where('id', '=', holdId)
      .where('state', '=', 'held')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    return db
      .selectFrom('credit_holds')
      .select(['user_id', 'amount'])
      .where('id', '=', holdId)
      .executeTakeFirstOrThrow();
  },

  async settleHeld(db: Executor, userId: number, amount: number, toAvailable: boolean): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({
        credits_held: eb('credits_held', '-', amount),
        ...(toAvailable ? { credits_available: eb('credits_available', '+', amount) } : {}),
        updated_at: now(),
      }))
      .where('id', '=', userId)
      .execute();
  },

  /** Takes `amount` from the spendable balance if the user has it (an administrator's take); false otherwise. */
  async takeAvailable(db: Executor, userId: number, amount: number): Promise<boolean> {
    return spendAvailable(db, userId, amount, false);
  },

  /** Adds to the subscription allowance part of the balance (credits_available is raised separately). */
  async addPlanCredits(db: Executor, userId: number, amount: number): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({ credits_plan: eb('credits_plan', '+', amount) }))
      .where('id', '=', userId)
      .execute();
  },

  /**
   * A renewal's rollover: the allowance left above `cap` expires. Returns the hundredths expired (0 if none).
   * One conditional UPDATE per step so concurrent spending cannot make the balance negative.
   */
  async expirePlanCreditsAbove(db: Executor, userId: number, cap: number): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select(['credits_plan', 'credits_available'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) return 0;
    const excess = Math.min(row.credits_plan - cap, row.credits_available);
    if (excess <= 0) return 0;
    const res = await db
      .updateTable('users')
      .set((eb) => ({
        credits_available: eb('credits_available', '-', excess),
        credits_plan: eb('credits_plan', '-', excess),
        updated_at: now(),
      }))
      .where('id', '=', userId)
      .where('credits_available', '>=', excess)
      .where('credits_plan', '>=', excess)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1 ? excess : 0;
  },

  /**
   * Appends a ledger row with the spendable balance after it. Call it after the balance change, in the same
   * transaction: the users row is write-locked by that change until commit, so the balance read is this one's.
   */
  async appendEntry(
    db: Executor,
    entry: {
      user_id: number;
      kind: LedgerKind;
      amount: number;
      hold_id: number | null;
      reason: string;
      job_id?: number | null;
      hook_pack_id?: number | null;
      ref?: string | null;
    },
  ): Promise<void> {
    const user = await db
      .selectFrom('users')
      .select('credits_available')
      .where('id', '=', entry.user_id)
      .executeTakeFirst();
    await db
      .insertInto('credit_entries')
      .values({
        user_id: entry.user_id,
        kind: entry.kind,
        amount: entry.amount,
        hold_id: entry.hold_id,
        reason: entry.reason,
        job_id: entry.job_id ?? null,
        hook_pack_id: entry.hook_pack_id ?? null,
        ref: entry.ref ?? null,
        balance_after: user?.credits_available ?? null,
        created_at: now(),
      })
      .execute();
  },

  /**
   * One page of a user's ledger, newest first, with the job each entry concerns: its own job_id (refunds) or
   * the job holding its hold. A deleted job leaves the entry without a link.
   */
  async page(db: Executor, userId: number, beforeId: number | null, limit: number) {
    let q = db
      .selectFrom('credit_entries as e')
      .leftJoin('jobs as j', (join) =>
        join.on((eb) =>
          eb.or([
            eb.and([
              eb('e.job_id', 'is', null),
              eb('e.hold_id', 'is not', null),
              eb('j.hold_id', '=', eb.ref('e.hold_id')),
            ]),
            eb('j.id', '=', eb.ref('e.job_id')),
          ]),
        ),
      )
      .leftJoin('hook_packs as p', (join) =>
        join.on((eb) => eb.or([eb('p.id', '=', eb.ref('j.hook_pack_id')), eb('p.id', '=', eb.ref('e.hook_pack_id'))])),
      )
      .select([
        'e.id',
        'e.kind',
        'e.amount',
        'e.balance_after',
        'e.reason',
        'e.created_at',
        'j.id as linked_job_id',
        'p.id as linked_pack_id',
      ])
      .where('e.user_id', '=', userId)
      .orderBy('e.id', 'desc')
      .limit(limit);
    if (beforeId !== null) q = q.where('e.id', '<', beforeId);
    return q.execute();
  },

  async balances(db: Executor, userId: number) {
    const user = await db
      .selectFrom('users')
      .select(['credits_available', 'credits_held'])
      .where('id', '=', userId)
      .executeTakeFirst();
    const sums = await db
      .selectFrom('credit_entries')
      .select((eb) => [
        eb.fn
          .coalesce(
            eb.fn.sum<number>(
              eb
                .case()
                .when('kind', 'in', ['grant', 'purchase', 'refund'])
                .then(eb.ref('amount'))
                .when('kind', 'in', ['take', 'expire'])
                .then(eb('amount', '*', -1))
                .else(0)
                .end(),
            ),
            eb.lit(0),
          )
          .as('granted'),
        eb.fn
          .coalesce(
            eb.fn.sum<number>(eb.case().when('kind', '=', 'capture').then(eb.ref('amount')).else(0).end()),
            eb.lit(0),
          )
          .as('consumed'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const held = await db
      .selectFrom('credit_holds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('held'))
      .where('user_id', '=', userId)
      .where('state', '=', 'held')
      .executeTakeFirstOrThrow();
    return {
      available: user?.credits_available ?? 0,
      held: user?.credits_held ?? 0,
      heldByHolds: Number(held.held),
      granted: Number(sums.granted),
      consumed: Number(sums.consumed),
    };
  },
};

/**
 * Takes `amount` from the spendable balance if the user has it, into the held part when `toHeld` (a job's hold);
 * false when they do not. Spending draws on the subscription allowance first: it is the part a renewal may expire.
 */
async function spendAvailable(db: Executor, userId: number, amount: number, toHeld: boolean): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set((eb) => ({
      credits_available: eb('credits_available', '-', amount),
      ...(toHeld ? { credits_held: eb('credits_held', '+', amount) } : {}),
      credits_plan: eb
        .case()
        .when('credits_plan', '>', amount)
        .then(eb('credits_plan', '-', amount))
        .else(0)
        .end(),
      updated_at: now(),
    }))
    .where('id', '=', userId)
    .where('credits_available', '>=', amount)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
