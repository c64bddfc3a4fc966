import type { Selectable } from 'kysely';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { ActorLooksTable } from '../tables/projects.ts';

export type ActorLookRow = Selectable<ActorLooksTable>;

/** What one save writes: only the fields given change (a photoreal still and mouth stills are made apart). */
export type ActorLookUpdate = Partial<Pick<ActorLookRow, 'photo_key' | 'photo_tag' | 'face_json' | 'mouths_json'>>;

/** A user's once-per-actor upgrades of actors (decision 216). */
export const actorLooksRepository = {
  async find(db: Executor, userId: number, avatarId: number): Promise<ActorLookRow | null> {
    return firstOrNull(
      db.selectFrom('actor_looks').selectAll().where('user_id', '=', userId).where('avatar_id', '=', avatarId),
    );
  },

  /** Every look of the user, for the actor lists' cards. */
  async listOf(db: Executor, userId: number): Promise<ActorLookRow[]> {
    return db.selectFrom('actor_looks').selectAll().where('user_id', '=', userId).execute();
  },

  /** Writes the fields given, making the row when it is the first. */
  async save(db: Executor, userId: number, avatarId: number, update: ActorLookUpdate): Promise<void> {
    const t = now();
    await db
      .insertInto('actor_looks')
      .values({
        user_id: userId,
        avatar_id: avatarId,
        photo_key: null,
        photo_tag: null,
        face_json: null,
        mouths_json: null,
        ...update,
        created_at: t,
        updated_at: t,
      })
      .onConflict((oc) => oc.columns(['user_id', 'avatar_id']).doUpdateSet({ ...update, updated_at: t }))
      .execute();
  },
};
