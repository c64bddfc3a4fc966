import type { Selectable } from 'kysely';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { ApiKeysTable } from '../tables/integrations.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export const apiKeysRepository = {
  async insert(
    db: Executor,
    key: { userId: number; name: string; prefix: string; keyHash: string; scope: 'user' | 'admin' },
  ) {
    return db
      .insertInto('api_keys')
      .values({
        user_id: key.userId,
        name: key.name,
        prefix: key.prefix,
        key_hash: key.keyHash,
        scope: key.scope,
        created_at: now(),
        last_used_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** The user's keys that still work, newest first. */
  listActive(db: Executor, userId: number): Promise<ApiKeyRow[]> {
    return db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('id', 'desc')
      .execute();
  },

  async countActive(db: Executor, userId: number): Promise<number> {
    const row = await db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  async findActiveByHash(db: Executor, keyHash: string): Promise<ApiKeyRow | null> {
    return firstOrNull(
      db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null),
    );
  },

  /** Revokes the user's key; false when it is not theirs or already revoked. */
  async revoke(db: Executor, userId: number, id: number): Promise<boolean> {
    const res = await db
      .updateTable('api_keys')
      .set({ revoked_at: now() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async touch(db: Executor, id: number, at: string): Promise<void> {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },
};
