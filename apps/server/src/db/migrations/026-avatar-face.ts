import type { Migration } from './helpers.ts';

/**
 * A photo avatar's face (decision 190): the face analysis's result as JSON (478 points, boxes, pose, descriptor),
 * found once when the photo is uploaded so a render never detects again. Null for drawn catalogue actors and for
 * photos uploaded before the analysis existed (those keep being shown as a still).
 */
export const avatarFaceMigration: Migration = {
  name: '026-avatar-face',
  async up(db) {
    await db.schema.alterTable('avatars').addColumn('face_json', 'text').execute();
  },
};
