import { addColumns, type Migration } from './helpers.ts';

/**
 * A project's own voice-over (docs/product.md#own-voice-over): who speaks the script, and the uploaded recording's
 * storage key and length. Existing projects keep the generated voice.
 */
export const ownVoiceOverMigration: Migration = {
  name: '022-own-voice-over',
  async up(db) {
    await addColumns(db, 'projects', {
      voice_source: ['text', (c) => c.notNull().defaultTo('generated')],
      voice_over_key: 'text',
      voice_over_duration_sec: 'double precision',
    });
  },
};
