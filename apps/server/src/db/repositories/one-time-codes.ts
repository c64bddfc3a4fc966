import type { Selectable } from 'kysely';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { OneTimeCodesTable, OneTimePurpose } from '../tables/auth.ts';

export type OneTimeCodeRow = Selectable<OneTimeCodesTable>;

/** Single-use secrets with an expiry; only hashes are stored. */
export const oneTimeCodesRepository = {
  async insert(
    db: Executor,
    row: {
      purpose: OneTimePurpose;
      secretHash: string;
      codeHash?: string | null;
      email?: string | null;
      userId?: number | null;
      context?: string | null;
      expiresAt: string;
    },
  ): Promise<void> {
    await db
      .insertInto('one_time_codes')
      .values({
        purpose: row.purpose,
        secret_hash: row.secretHash,
        code_hash: row.codeHash ?? null,
        email: row.email ?? null,
        user_id: row.userId ?? null,
        context: row.context ?? null,
        expires_at: row.expiresAt,
        used_at: null,
        created_at: now(),
      })
      .execute();
  },

  /** A live (unused, unexpired) code found by its long secret. */
  async findLiveBySecret(db: Executor, purpose: OneTimePurpose, secretHash: string): Promise<OneTimeCodeRow | null> {
    return firstOrNull(
      db
        .selectFrom('one_time_codes')
        .selectAll()
        .where('purpose', '=', purpose)
        .where('secret_hash', '=', secretHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now()),
    );
  },

  /** The newest live code bound to a context (e.g. the sign-in page's interaction). */
  async findLatestLiveByContext(
    db: Executor,
    purpose: OneTimePurpose,
    context: string,
  ): Promise<OneTimeCodeRow | null> {
    return firstOrNull(
      db
        .selectFrom('one_time_codes')
        .selectAll()
        .where('purpose', '=', purpose)
        .where('context', '=', context)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now())
        .orderBy('id', 'desc'),
    );
  },

  /** Spends the code: the WHERE is the check and the write at once, so only one caller ever wins. */
  async consume(db: Executor, id: number): Promise<boolean> {
    const res = await db
      .updateTable('one_time_codes')
      .set({ used_at: now() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now())
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Counts a wrong guess; returns the attempts so far (the caller voids the code past its limit). */
  async countAttempt(db: Executor, id: number): Promise<number> {
    await db
      .updateTable('one_time_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
    const row = await db.selectFrom('one_time_codes').select('attempts').where('id', '=', id).executeTakeFirst();
    return row?.attempts ?? Number.POSITIVE_INFINITY;
  },

  /** Voids every live code of this purpose for the address (a new one replaces them, or too many guesses). */
  async voidForEmail(db: Executor, purpose: OneTimePurpose, email: string): Promise<void> {
    await db
      .updateTable('one_time_codes')
      .set({ used_at: now() })
      .where('purpose', '=', purpose)
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .execute();
  },

  /** Housekeeping: codes past their expiry are of no use to anyone. */
  async deleteExpiredBefore(db: Executor, before: string): Promise<number> {
    const out = await db.deleteFrom('one_time_codes').where('expires_at', '<', before).executeTakeFirst();
    return Number(out.numDeletedRows);
  },
};
