import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

export const jobsCreditsMigration: Migration = {
  name: '002-jobs-credits',
  async up(db, dialect) {
    await withId(db.schema.createTable('credit_holds'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .execute();
    await withId(db.schema.createTable('credit_entries'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('hold_id', 'integer')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_entries_user').on('credit_entries').column('user_id').execute();
    await withId(db.schema.createTable('jobs'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('project_id', 'integer')
      .addColumn('hook_pack_id', 'integer')
      .addColumn('variant_index', 'integer')
      .addColumn('project_name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('logs', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('video_key', 'text')
      .addColumn('poster_key', 'text')
      .addColumn('error', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('run_after', 'text', (c) => c.notNull())
      .addColumn('hold_id', 'integer', (c) => c.references('credit_holds.id'))
      .addColumn('idempotency_key', 'text')
      .addColumn('file_token', 'text', (c) => c.notNull())
      .addColumn('batch_id', 'text')
      .addColumn('notified_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addUniqueConstraint('jobs_user_idempotency', ['user_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('jobs_user_created').on('jobs').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('jobs_claimable').on('jobs').columns(['status', 'run_after']).execute();
    await db.schema.createIndex('jobs_hook_pack').on('jobs').column('hook_pack_id').execute();
    await db.schema.createIndex('jobs_batch').on('jobs').column('batch_id').execute();
    await db.schema.createIndex('credit_entries_hold').on('credit_entries').column('hold_id').execute();
  },
};
