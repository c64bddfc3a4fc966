import { addColumns, type Migration } from './helpers.ts';

/**
 * The frame shapes a project's or pack's videos are exported in (docs/video-design.md#aspects), stored as a
 * comma list ('9:16,4:5'). Existing rows export 9:16 only, as they always did. The extra files of a finished job
 * live in its result JSON beside the quality report, so jobs need no column.
 */
export const aspectsMigration: Migration = {
  name: '019-aspects',
  async up(db) {
    for (const table of ['projects', 'hook_packs']) {
      await addColumns(db, table, { aspects: ['text', (c) => c.notNull().defaultTo('9:16')] });
    }
  },
};
