import { addColumns, type Migration } from './helpers.ts';

/**
 * The hook matrix (docs/product.md#hook-matrix): each pack video records its cell ('H2-A1-C3') and, when the
 * matrix gave it one, its own call to action; the job carries the cell too, so cards, download names and the
 * pack's manifest name the video the same way. Older videos keep null (no cell, the pack's call to action).
 */
export const hookMatrixMigration: Migration = {
  name: '018-hook-matrix',
  async up(db) {
    await addColumns(db, 'hook_variants', { variant_id: 'text', cta_text: 'text' });
    await addColumns(db, 'jobs', { variant_id: 'text' });
  },
};
