import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

/** Idempotency-Key claims and the first response of every credit-spending request (decision 050). */
export const idempotencyKeysMigration: Migration = {
  name: '005-idempotency-keys',
  async up(db, dialect) {
    await withId(db.schema.createTable('idempotency_keys'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('idempotency_keys_user_key', ['user_id', 'key'])
      .execute();
  },
};
