import type { Migration } from './helpers.ts';

/**
 * Realistic mode (decision 120): what providers billed per job, and the uploader's consent for an avatar photo of
 * a real person.
 */
export const providerCostConsentMigration: Migration = {
  name: '012-provider-cost-consent',
  async up(db) {
    // JSON {images, characters, seconds, calls}; null while every stage ran locally.
    await db.schema.alterTable('jobs').addColumn('cost', 'text').execute();
    await db.schema.alterTable('avatars').addColumn('consent_confirmed_at', 'text').execute();
    await db.schema.alterTable('avatars').addColumn('consent_by_user_id', 'integer').execute();
  },
};
