import type { Migration } from './helpers.ts';

/**
 * The check of a hook pack's product cut-out (decision 214, issue #34): its verdict ('clean', 'cleaned',
 * 'needs-review'), what was fixed and why it needs a look (JSON), and when the user chose to use a needs-review
 * cut-out as it is. All null until the cut-out is made; a new product upload clears them.
 */
export const cutoutCheckMigration: Migration = {
  name: '031-cutout-check',
  async up(db) {
    await db.schema.alterTable('hook_packs').addColumn('cutout_verdict', 'text').execute();
    await db.schema.alterTable('hook_packs').addColumn('cutout_notes', 'text').execute();
    await db.schema.alterTable('hook_packs').addColumn('cutout_accepted_at', 'text').execute();
  },
};
