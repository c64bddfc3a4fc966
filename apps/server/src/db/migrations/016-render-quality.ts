import { addColumns, type Migration } from './helpers.ts';

/**
 * Draft or Realistic per project and per hook pack (docs/providers.md), and the voice's speaking rate. Existing
 * rows are Draft at normal speed: what they were made with until now.
 */
export const renderQualityMigration: Migration = {
  name: '016-render-quality',
  async up(db) {
    for (const table of ['projects', 'hook_packs']) {
      await addColumns(db, table, {
        render_quality: ['text', (c) => c.notNull().defaultTo('draft')],
        voice_speed: ['double precision', (c) => c.notNull().defaultTo(1)],
      });
    }
  },
};
