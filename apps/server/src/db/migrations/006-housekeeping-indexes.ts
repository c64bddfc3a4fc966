import type { Migration } from './helpers.ts';

/** Indexes for the hourly housekeeping deletes (services/platform/housekeeping.ts), so they never scan whole tables. */
export const housekeepingIndexesMigration: Migration = {
  name: '006-housekeeping-indexes',
  async up(db) {
    await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
    await db.schema.createIndex('refresh_tokens_expires_at').on('refresh_tokens').column('expires_at').execute();
  },
};
