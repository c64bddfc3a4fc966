import type { Insertable, Selectable } from 'kysely';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { AvatarsTable, MergeStatus } from '../tables/projects.ts';

export type AvatarRow = Selectable<AvatarsTable>;
export type AvatarWithMerge = AvatarRow & { merge_status: MergeStatus | null; merged_key: string | null };

export interface AvatarBoundsUpdate {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  corners: string;
}

export const avatarsRepository = {
  /**
   * Avatars a user can see: the shared library (owner null: catalogue actors and admin uploads) plus their own,
   * never tombstoned ones. With a project id, each row carries that project's merge state.
   */
  async listVisible(db: Executor, userId: number, projectId?: number): Promise<AvatarWithMerge[]> {
    const base = db
      .selectFrom('avatars as a')
      .selectAll('a')
      .where('a.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('a.owner_user_id', 'is', null), eb('a.owner_user_id', '=', userId)]));
    if (projectId === undefined) {
      const rows = await base.execute();
      return rows.map((r) => ({ ...r, merge_status: null, merged_key: null }));
    }
    return base
      .leftJoin('project_characters as pc', (join) =>
        join.onRef('pc.avatar_id', '=', 'a.id').on('pc.project_id', '=', projectId),
      )
      .select(['pc.merge_status', 'pc.merged_key'])
      .execute();
  },

  /** A live avatar visible to the user (shared or their own), or null. */
  async findVisible(db: Executor, userId: number, id: number): Promise<AvatarRow | null> {
    return firstOrNull(
      db
        .selectFrom('avatars')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where((eb) => eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', userId)])),
    );
  },

  /** A live private avatar of this owner (an own creator, decision 202), or null, whoever else asks. */
  async findOwn(db: Executor, ownerId: number, id: number): Promise<AvatarRow | null> {
    return firstOrNull(
      db
        .selectFrom('avatars')
        .selectAll()
        .where('id', '=', id)
        .where('owner_user_id', '=', ownerId)
        .where('deleted_at', 'is', null),
    );
  },

  /** The owner's own creators, newest first. */
  async listOwn(db: Executor, ownerId: number): Promise<AvatarRow[]> {
    return db
      .selectFrom('avatars')
      .selectAll()
      .where('owner_user_id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  async rename(db: Executor, id: number, name: string): Promise<void> {
    await db.updateTable('avatars').set({ name, updated_at: now() }).where('id', '=', id).execute();
  },

  async findLive(db: Executor, id: number): Promise<AvatarRow | null> {
    return firstOrNull(db.selectFrom('avatars').selectAll().where('id', '=', id).where('deleted_at', 'is', null));
  },

  /** Ids among `ids` that the user may use (shared or own, live). */
  async visibleIds(db: Executor, userId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom('avatars')
      .select('id')
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', userId)]))
      .execute();
    return new Set(rows.map((r) => r.id));
  },

  async insert(
    db: Executor,
    a: Omit<Insertable<AvatarsTable>, 'id' | 'created_at' | 'updated_at' | 'deleted_at'>,
  ): Promise<AvatarRow> {
    const at = now();
    return db
      .insertInto('avatars')
      .values({ ...a, deleted_at: null, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /**
   * An uploaded photo actor (avatar library or a user's own creator): no prompt, traits, bounds or catalogue id
   * yet; the consent record and the face found on upload go with it.
   */
  insertUploadedPhoto(
    db: Executor,
    a: Pick<
      Insertable<AvatarsTable>,
      | 'owner_user_id'
      | 'created_by_user_id'
      | 'image_key'
      | 'name'
      | 'consent_confirmed_at'
      | 'consent_by_user_id'
      | 'consent_text'
      | 'face_json'
    >,
  ): Promise<AvatarRow> {
    return avatarsRepository.insert(db, {
      ...a,
      prompt: null,
      catalogue_actor_id: null,
      gender: null,
      race: null,
      background: null,
      x: null,
      y: null,
      width: null,
      height: null,
      rotation: 0,
      corners: null,
    });
  },

  /** Inserts a catalogue actor unless one with that catalogue id exists (alive or tombstoned); true if inserted. */
  async insertCatalogueActorIfMissing(
    db: Executor,
    a: Omit<Insertable<AvatarsTable>, 'id' | 'created_at' | 'updated_at' | 'deleted_at'> & {
      catalogue_actor_id: string;
    },
  ): Promise<boolean> {
    const at = now();
    const res = await db
      .insertInto('avatars')
      .values({ ...a, deleted_at: null, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('catalogue_actor_id').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  },

  /** Every catalogue row, tombstoned ones included (the seeder must not resurrect those). */
  async catalogueRows(
    db: Executor,
  ): Promise<Array<Pick<AvatarRow, 'id' | 'catalogue_actor_id' | 'image_key' | 'deleted_at'>>> {
    return db
      .selectFrom('avatars')
      .select(['id', 'catalogue_actor_id', 'image_key', 'deleted_at'])
      .where('catalogue_actor_id', 'is not', null)
      .execute();
  },

  async setImageKey(db: Executor, id: number, imageKey: string): Promise<void> {
    await db.updateTable('avatars').set({ image_key: imageKey, updated_at: now() }).where('id', '=', id).execute();
  },

  async updateBounds(db: Executor, id: number, b: AvatarBoundsUpdate): Promise<AvatarRow | null> {
    const res = await db
      .updateTable('avatars')
      .set({ ...b, updated_at: now() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    return this.findLive(db, id);
  },

  /**
   * Removes an avatar: catalogue actors become tombstones (and leave every project), others are deleted with
   * their project characters by cascade. Returns the storage keys that are no longer referenced, or null.
   */
  async remove(db: Executor, id: number): Promise<string[] | null> {
    const row = await this.findLive(db, id);
    if (!row) return null;
    const merged = await db
      .selectFrom('project_characters')
      .select('merged_key')
      .where('avatar_id', '=', id)
      .where('merged_key', 'is not', null)
      .execute();
    // Hook-pack previews of the creator holding a product (decision 207): their rows go with the avatar (cascade).
    const previews = await db
      .selectFrom('preview_characters as p')
      .innerJoin('generated_characters as c', 'c.id', 'p.generated_character_id')
      .select('p.image_key')
      .where('c.avatar_id', '=', id)
      .where('p.image_key', 'is not', null)
      .execute();
    const mergedKeys = [...merged.map((m) => m.merged_key), ...previews.map((p) => p.image_key)].filter(
      (k): k is string => !!k,
    );
    if (row.catalogue_actor_id !== null) {
      const res = await db
        .updateTable('avatars')
        .set({ deleted_at: now(), updated_at: now() })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return null;
      await db.deleteFrom('project_characters').where('avatar_id', '=', id).execute();
      return mergedKeys;
    }
    const res = await db.deleteFrom('avatars').where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) return null;
    return [row.image_key, ...mergedKeys];
  },
};
