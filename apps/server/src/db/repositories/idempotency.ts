import type { Selectable } from 'kysely';
import { now, type Executor } from '../database.ts';
import type { IdempotencyKeysTable } from '../tables/idempotency.ts';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

/** Idempotency-Key claims. The unique (user_id, key) constraint is what lets exactly one request run. */
export const idempotencyRepository = {
  async find(db: Executor, userId: number, key: string): Promise<IdempotencyKeyRow | undefined> {
    return db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
  },

  /** Claims the key for a request about to run; throws a unique violation when the key is taken. */
  async claim(
    db: Executor,
    row: { user_id: number; key: string; scope: string; fingerprint: string },
  ): Promise<number> {
    const t = now();
    const out = await db
      .insertInto('idempotency_keys')
      .values({ ...row, state: 'pending', response_status: null, response_body: null, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    return out.id;
  },

  async complete(db: Executor, id: number, status: number, body: string): Promise<void> {
    await db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response_status: status, response_body: body, updated_at: now() })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  },

  /** Forgets keys claimed before `before` (housekeeping); returns how many. */
  async deleteClaimedBefore(db: Executor, before: string): Promise<number> {
    const out = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
    return Number(out.numDeletedRows);
  },

  /** Frees a claim whose request failed (nothing was spent: its transaction rolled back). */
  async abandon(db: Executor, id: number): Promise<void> {
    await db.deleteFrom('idempotency_keys').where('id', '=', id).where('state', '=', 'pending').execute();
  },
};
