import { addColumns, type Migration } from './helpers.ts';

/**
 * The check of a product cut-out (decision 214, issue #34), on hook packs and on projects (product in hand): its
 * verdict ('clean', 'cleaned', 'needs-review'), what was fixed and why it needs a look (JSON), and when the user
 * chose to use a needs-review cut-out as it is. All null until the cut-out is made. A pack's new upload clears
 * them; a project's hold the product image they are about (`cutout_file_key`), so another image has none.
 */
export const cutoutCheckMigration: Migration = {
  name: '031-cutout-check',
  async up(db) {
    await addColumns(db, 'hook_packs', { cutout_verdict: 'text', cutout_notes: 'text', cutout_accepted_at: 'text' });
    await addColumns(db, 'projects', {
      cutout_file_key: 'text',
      cutout_verdict: 'text',
      cutout_notes: 'text',
      cutout_accepted_at: 'text',
    });
  },
};
