import type { Migration } from './helpers.ts';

/**
 * A project's own voice-over (docs/product.md#own-voice-over): who speaks the script, and the uploaded recording's
 * storage key and length. Existing projects keep the generated voice.
 */
export const ownVoiceOverMigration: Migration = {
  name: '022-own-voice-over',
  async up(db) {
    await db.schema
      .alterTable('projects')
      .addColumn('voice_source', 'text', (c) => c.notNull().defaultTo('generated'))
      .execute();
    await db.schema.alterTable('projects').addColumn('voice_over_key', 'text').execute();
    await db.schema.alterTable('projects').addColumn('voice_over_duration_sec', 'double precision').execute();
  },
};
