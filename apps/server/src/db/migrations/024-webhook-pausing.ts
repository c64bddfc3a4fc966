import type { Migration } from './helpers.ts';

/**
 * Webhook endpoints that keep failing are paused (issue #33): the failed attempts in a row since the last
 * success, and when the endpoint was paused (null while it is active). Existing endpoints start active.
 */
export const webhookPausingMigration: Migration = {
  name: '024-webhook-pausing',
  async up(db) {
    await db.schema
      .alterTable('webhook_endpoints')
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('webhook_endpoints').addColumn('paused_at', 'text').execute();
  },
};
