import { canonicalEmail } from '../../auth/canonical-email.ts';
import { trialKeyOf } from '../../auth/trial-key.ts';
import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Issue #33: each account's mailbox kept beside the address it shows (decision 174), API keys with a scope
 * (decision 175), and the log of what administrators did and with which credential (decision 175).
 */
export const creditsTrialsKeysMigration: Migration = {
  name: '023-credits-trials-keys',
  async up(db, dialect) {
    await db.schema.alterTable('users').addColumn('email_canonical', 'text').execute();
    await db.schema.createIndex('users_email_canonical').on('users').column('email_canonical').execute();
    const salt = (await db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'trial_email_salt')
      .executeTakeFirstOrThrow()) as { value: string };
    const users = (await db.selectFrom('users').select(['id', 'email', 'created_at']).execute()) as Array<{
      id: number;
      email: string;
      created_at: string;
    }>;
    for (const u of users) {
      await db
        .updateTable('users')
        .set({ email_canonical: canonicalEmail(u.email) })
        .where('id', '=', u.id)
        .execute();
      // Every existing account had its trial chance: its mailbox's new key counts as claimed, as 007 did.
      await db
        .insertInto('trial_claims')
        .values({ email_hash: trialKeyOf(salt.value, u.email), created_at: u.created_at })
        .onConflict((oc) => oc.column('email_hash').doNothing())
        .execute();
    }

    // Existing keys were made for integrations: none of them acts as an administrator.
    await db.schema
      .alterTable('api_keys')
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo('user'))
      .execute();

    // No foreign key: the record of what an administrator did outlives their account.
    await withId(db.schema.createTable('admin_audit'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('user_email', 'text', (c) => c.notNull())
      .addColumn('credential', 'text', (c) => c.notNull())
      .addColumn('api_key_id', 'integer')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('detail', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('admin_audit_created').on('admin_audit').column('created_at').execute();
  },
};
