import type { Migration } from './helpers.ts';

/**
 * A hook pack's character may be one of the owner's own creators (decision 207): `avatar_id` names the creator's
 * avatar row. Deleting the creator removes its characters from every pack, with their previews and video rows
 * (the rendered videos stay in the jobs list until their owner deletes them), as it leaves projects (decision 202).
 */
export const packCreatorsMigration: Migration = {
  name: '029-pack-creators',
  async up(db) {
    await db.schema
      .alterTable('generated_characters')
      .addColumn('avatar_id', 'integer', (c) => c.references('avatars.id').onDelete('cascade'))
      .execute();
  },
};
