import { addColumns, type Migration } from './helpers.ts';

/**
 * Realistic mode (decision 120): what providers billed per job, and the uploader's consent for an avatar photo of
 * a real person.
 */
export const providerCostConsentMigration: Migration = {
  name: '012-provider-cost-consent',
  async up(db) {
    // JSON {images, characters, seconds, calls}; null while every stage ran locally.
    await addColumns(db, 'jobs', { cost: 'text' });
    await addColumns(db, 'avatars', { consent_confirmed_at: 'text', consent_by_user_id: 'integer' });
  },
};
