import type { Selectable } from 'kysely';
import { canonicalEmail } from '../../auth/canonical-email.ts';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { UsersTable } from '../tables/auth.ts';

export type UserRow = Selectable<UsersTable>;

export const usersRepository = {
  /**
   * Creates the user, or returns null when the e-mail is taken. ON CONFLICT DO NOTHING instead of catching
   * the unique violation keeps a PostgreSQL transaction usable and works the same on SQLite.
   */
  async insertIfEmailFree(
    db: Executor,
    user: { email: string; passwordHash: string | null; verified: boolean },
  ): Promise<UserRow | null> {
    const at = now();
    const row = await db
      .insertInto('users')
      .values({
        email: user.email,
        email_canonical: canonicalEmail(user.email),
        password_hash: user.passwordHash,
        notify: 0,
        credits_available: 0,
        credits_held: 0,
        email_verified_at: user.verified ? at : null,
        sessions_revoked_at: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  },

  async findById(db: Executor, id: number): Promise<UserRow | null> {
    return firstOrNull(db.selectFrom('users').selectAll().where('id', '=', id));
  },

  async findByEmail(db: Executor, email: string): Promise<UserRow | null> {
    return firstOrNull(db.selectFrom('users').selectAll().where('email', '=', email));
  },

  /** False when the user no longer exists. */
  async setNotify(db: Executor, id: number, notify: boolean): Promise<boolean> {
    const res = await db
      .updateTable('users')
      .set({ notify: notify ? 1 : 0, updated_at: now() })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Marks the address verified; true only for the call that changed it (so the trial is granted once). */
  async markVerified(db: Executor, id: number): Promise<boolean> {
    const at = now();
    const res = await db
      .updateTable('users')
      .set({ email_verified_at: at, updated_at: at })
      .where('id', '=', id)
      .where('email_verified_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /**
   * Removes the password (the account can then only be entered by e-mail or a linked provider) and voids the
   * access tokens issued so far; the caller deletes the refresh tokens in the same transaction.
   */
  async clearPasswordAndEndSessions(db: Executor, id: number): Promise<void> {
    const at = now();
    await db
      .updateTable('users')
      .set({ password_hash: null, sessions_revoked_at: at, updated_at: at })
      .where('id', '=', id)
      .execute();
  },

  /** Every row that belongs to the user goes with it through ON DELETE CASCADE. */
  async delete(db: Executor, id: number): Promise<boolean> {
    const res = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  },
};
