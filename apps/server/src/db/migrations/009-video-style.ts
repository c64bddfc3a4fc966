import { addColumns, type Migration } from './helpers.ts';

/**
 * How a project's or hook pack's videos look and sound (docs/video-design.md): the caption preset, the end card's
 * call to action, and the storage key of an uploaded music bed. Existing rows get the default captions.
 */
export const videoStyleMigration: Migration = {
  name: '009-video-style',
  async up(db) {
    for (const table of ['projects', 'hook_packs']) {
      await addColumns(db, table, {
        caption_style: ['text', (c) => c.notNull().defaultTo('highlight')],
        cta_text: 'text',
        music_key: 'text',
      });
    }
  },
};
