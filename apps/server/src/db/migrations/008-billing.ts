import { randomBytes } from 'node:crypto';
import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Billing (decision 100): the ledger records the balance after each entry and the job it concerns; trial claims
 * by salted address hash; payment customers, subscriptions, processed webhook events; refund requests.
 */
export const billingMigration: Migration = {
  name: '008-billing',
  async up(db, dialect) {
    await db.schema.alterTable('credit_entries').addColumn('balance_after', 'integer').execute();
    await db.schema.alterTable('credit_entries').addColumn('job_id', 'integer').execute();
    await db.schema.alterTable('credit_entries').addColumn('hook_pack_id', 'integer').execute();
    await db.schema.alterTable('credit_entries').addColumn('ref', 'text').execute();
    await db.schema
      .createIndex('credit_entries_user_id_desc')
      .on('credit_entries')
      .columns(['user_id', 'id'])
      .execute();
    // Credits from a subscription's allowance that are still unspent: the part a renewal's rollover cap applies to.
    await db.schema
      .alterTable('users')
      .addColumn('credits_plan', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('app_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db
      .insertInto('app_secrets')
      .values({ name: 'trial_email_salt', value: randomBytes(32).toString('base64url') })
      .execute();
    await db.schema
      .createTable('trial_claims')
      .addColumn('email_hash', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('billing_customers')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('customer_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('subscriptions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text', (c) => c.unique())
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('interval', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('current_period_end', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('subscriptions_user').on('subscriptions').column('user_id').execute();
    await db.schema
      .createTable('billing_events')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('refund_requests'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('job_id', 'integer', (c) => c.notNull().unique())
      .addColumn('project_name', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('decision_note', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute();
    await db.schema.createIndex('refund_requests_state').on('refund_requests').column('state').execute();
  },
};
