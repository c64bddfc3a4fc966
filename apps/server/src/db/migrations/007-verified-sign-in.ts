import { sql } from 'kysely';
import { legacyTrialKeyOf } from '../../auth/trial-key.ts';
import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Verified e-mail addresses, ended sessions, and one-time codes (sign-in links and codes, e-mail verification,
 * the callback's exchange code) (decisions 070, 071).
 */
export const verifiedSignInMigration: Migration = {
  name: '007-verified-sign-in',
  async up(db, dialect) {
    await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
    await db.schema.alterTable('users').addColumn('sessions_revoked_at', 'text').execute();
    // Accounts that came through Google had their address verified by Google; nobody else's was verified.
    await db
      .updateTable('users')
      .set({ email_verified_at: sql`created_at` })
      .where('id', 'in', db.selectFrom('identities').select('user_id').where('provider', '=', 'google'))
      .execute();

    await withId(db.schema.createTable('one_time_codes'), dialect)
      .addColumn('purpose', 'text', (c) => c.notNull())
      /** SHA-256 of the long secret (link token, exchange code): looked up directly. */
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      /** HMAC of the short code typed by hand (sign-in codes); checked within `context` only. */
      .addColumn('code_hash', 'text')
      .addColumn('email', 'text')
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      /** What the code is bound to: the provider interaction, or the hash of the browser's binding cookie. */
      .addColumn('context', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('one_time_codes_context')
      .on('one_time_codes')
      .columns(['purpose', 'context'])
      .execute();
    await db.schema.createIndex('one_time_codes_expires_at').on('one_time_codes').column('expires_at').execute();
    await db.schema.createIndex('one_time_codes_user').on('one_time_codes').column('user_id').execute();

    // Every existing account already had its free credits: its address counts as having had the trial
    // (trial_claims and its salt come from 008-billing, which runs first).
    const salt = (await db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'trial_email_salt')
      .executeTakeFirstOrThrow()) as { value: string };
    const users = (await db.selectFrom('users').select(['email', 'created_at']).execute()) as Array<{
      email: string;
      created_at: string;
    }>;
    for (const u of users) {
      await db
        .insertInto('trial_claims')
        .values({ email_hash: legacyTrialKeyOf(salt.value, u.email), created_at: u.created_at })
        .onConflict((oc) => oc.column('email_hash').doNothing())
        .execute();
    }
  },
};
