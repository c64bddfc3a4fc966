import { now, type Executor } from '../database.ts';

/** Links between a user and an external sign-in (provider + the provider's stable subject id). */
export const identitiesRepository = {
  async findUserId(db: Executor, provider: string, subject: string): Promise<number | null> {
    const row = await db
      .selectFrom('identities')
      .select('user_id')
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.user_id ?? null;
  },

  async deleteAllForUser(db: Executor, userId: number): Promise<void> {
    await db.deleteFrom('identities').where('user_id', '=', userId).execute();
  },

  /** Does nothing if the link exists already (a concurrent first sign-in made it). */
  async link(db: Executor, link: { userId: number; provider: string; subject: string }): Promise<void> {
    await db
      .insertInto('identities')
      .values({ user_id: link.userId, provider: link.provider, subject: link.subject, created_at: now() })
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .execute();
  },
};
