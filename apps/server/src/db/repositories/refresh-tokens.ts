import type { Selectable } from 'kysely';
import { firstOrNull, now, type Executor } from '../database.ts';
import type { RefreshTokensTable } from '../tables/auth.ts';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export const refreshTokensRepository = {
  async insert(
    db: Executor,
    token: { userId: number; familyId: string; tokenHash: string; expiresAt: string },
  ): Promise<void> {
    await db
      .insertInto('refresh_tokens')
      .values({
        user_id: token.userId,
        family_id: token.familyId,
        token_hash: token.tokenHash,
        used_at: null,
        revoked_at: null,
        expires_at: token.expiresAt,
        created_at: now(),
      })
      .execute();
  },

  /** Deletes tokens past their expiry (housekeeping): they can no longer sign anyone in. Returns how many. */
  async deleteExpiredBefore(db: Executor, before: string): Promise<number> {
    const out = await db.deleteFrom('refresh_tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(out.numDeletedRows);
  },

  async findByHash(db: Executor, tokenHash: string): Promise<RefreshTokenRow | null> {
    return firstOrNull(db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash));
  },

  /**
   * Marks the token used if it is still fresh. The WHERE clause is the check and the write at once, so of two
   * concurrent refreshes with the same token exactly one wins; the other is treated as reuse.
   */
  async markUsed(db: Executor, id: number): Promise<boolean> {
    const res = await db
      .updateTable('refresh_tokens')
      .set({ used_at: now() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async revokeFamily(db: Executor, familyId: string): Promise<void> {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  },

  /** Ends every session of the user (all families). */
  async deleteAllForUser(db: Executor, userId: number): Promise<void> {
    await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
  },

  /** Housekeeping on sign-in: a user's expired tokens are of no use to anyone. */
  async deleteExpiredForUser(db: Executor, userId: number): Promise<void> {
    await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('expires_at', '<', now()).execute();
  },
};
