import type { Migration } from './helpers.ts';

/**
 * How a project's or hook pack's videos look and sound (docs/video-design.md): the caption preset, the end card's
 * call to action, and the storage key of an uploaded music bed. Existing rows get the default captions.
 */
export const videoStyleMigration: Migration = {
  name: '009-video-style',
  async up(db) {
    for (const table of ['projects', 'hook_packs']) {
      await db.schema
        .alterTable(table)
        .addColumn('caption_style', 'text', (c) => c.notNull().defaultTo('highlight'))
        .execute();
      await db.schema.alterTable(table).addColumn('cta_text', 'text').execute();
      await db.schema.alterTable(table).addColumn('music_key', 'text').execute();
    }
  },
};
