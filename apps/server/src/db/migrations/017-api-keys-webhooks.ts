import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Personal API keys (stored as a SHA-256 of the key, decision 131) and webhooks: endpoints with their signing
 * secret, and one delivery row per event and endpoint (decision 132).
 */
export const apiKeysWebhooksMigration: Migration = {
  name: '017-api-keys-webhooks',
  async up(db, dialect) {
    await withId(db.schema.createTable('api_keys'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();

    await withId(db.schema.createTable('webhook_endpoints'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_endpoints_user').on('webhook_endpoints').column('user_id').execute();

    await withId(db.schema.createTable('webhook_deliveries'), dialect)
      .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      // What the event is about (`job:12:completed`, `pack:3:failed`): one delivery per subject and endpoint.
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_attempt_at', 'text')
      .addColumn('next_attempt_at', 'text')
      .addUniqueConstraint('webhook_deliveries_subject', ['endpoint_id', 'subject'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_user')
      .on('webhook_deliveries')
      .columns(['user_id', 'id'])
      .execute();
  },
};
