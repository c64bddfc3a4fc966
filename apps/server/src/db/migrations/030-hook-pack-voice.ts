import type { Migration } from './helpers.ts';

/**
 * The voice a hook pack chose (decision 212, issue #31), as projects have since migration 028: an id of
 * GET /api/voices, or null for the best voice of the pack's language, accent and each character's gender. Every
 * video of the pack, the 12 hooks and the matrix alike, speaks with it.
 */
export const hookPackVoiceMigration: Migration = {
  name: '030-hook-pack-voice',
  async up(db) {
    await db.schema.alterTable('hook_packs').addColumn('voice_id', 'text').execute();
  },
};
