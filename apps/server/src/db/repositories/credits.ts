import { now, type Executor } from '../database.ts';

/**
 * Credit movements. Each balance change is one conditional UPDATE, so it is atomic in SQLite and PostgreSQL
 * alike without explicit row locks: the WHERE clause is the check and the write at once.
 */
export const creditsRepository = {
  async addAvailable(db: Executor, userId: number, amount: number): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({ credits_available: eb('credits_available', '+', amount), updated_at: now() }))
      .where('id', '=', userId)
      .execute();
  },

  /** Moves `amount` from available to held if the user has it; false when they do not. */
  async moveAvailableToHeld(db: Executor, userId: number, amount: number): Promise<boolean> {
    const res = await db
      .updateTable('users')
      .set((eb) => ({
        credits_available: eb('credits_available', '-', amount),
        credits_held: eb('credits_held', '+', amount),
        updated_at: now(),
      }))
      .where('id', '=', userId)
      .where('credits_available', '>=', amount)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
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

  async appendEntry(
    db: Executor,
    entry: {
      user_id: number;
      kind: 'grant' | 'hold' | 'capture' | 'release';
      amount: number;
      hold_id: number | null;
      reason: string;
    },
  ): Promise<void> {
    await db
      .insertInto('credit_entries')
      .values({ ...entry, created_at: now() })
      .execute();
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
            eb.fn.sum<number>(eb.case().when('kind', '=', 'grant').then(eb.ref('amount')).else(0).end()),
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
