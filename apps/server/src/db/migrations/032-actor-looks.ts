import { withId, type Migration } from './helpers.ts';

/**
 * A user's once-per-actor upgrades (decision 216): a catalogue actor made photoreal for them (the still's key, the
 * images request's tag and the face found on it, kept like an avatar's), and real mouth stills made from an actor's
 * photo (their keys by mouth shape, and the photo they were made from). One row per user and actor; it goes with
 * either.
 */
export const actorLooksMigration: Migration = {
  name: '032-actor-looks',
  async up(db, dialect) {
    await withId(db.schema.createTable('actor_looks'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('avatar_id', 'integer', (c) => c.notNull().references('avatars.id').onDelete('cascade'))
      .addColumn('photo_key', 'text')
      .addColumn('photo_tag', 'text')
      .addColumn('face_json', 'text')
      .addColumn('mouths_json', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('actor_looks_user_avatar', ['user_id', 'avatar_id'])
      .execute();
  },
};
