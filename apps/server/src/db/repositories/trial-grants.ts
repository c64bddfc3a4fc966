import { now, type Executor } from '../database.ts';

/** Which addresses already had the trial, as salted hashes; rows outlive the accounts on purpose. */
export const trialGrantsRepository = {
  async salt(db: Executor): Promise<string> {
    const row = await db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'trial_salt')
      .executeTakeFirstOrThrow();
    return row.value;
  },

  /** True only for the first claim of this address hash, ever. */
  async claim(db: Executor, addressHash: string): Promise<boolean> {
    const row = await db
      .insertInto('trial_grants')
      .values({ address_hash: addressHash, created_at: now() })
      .onConflict((oc) => oc.column('address_hash').doNothing())
      .returning('address_hash')
      .executeTakeFirst();
    return row !== undefined;
  },
};
