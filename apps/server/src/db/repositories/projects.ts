import type { Insertable, Selectable, Updateable } from 'kysely';
import { type DialectName, type Executor, firstOrNull, now } from '../database.ts';
import type { AvatarsTable, MergeStatus, ProjectCharactersTable, ProjectsTable } from '../tables/projects.ts';

/** The style a new project copies from its owner's brand kit. */
export type ProjectStyleDefaults = Pick<
  Insertable<ProjectsTable>,
  'caption_style' | 'cta_text' | 'caption_font' | 'primary_colour' | 'secondary_colour' | 'outro'
>;

export type ProjectRow = Selectable<ProjectsTable>;
export type ProjectCharacterRow = Selectable<ProjectCharactersTable>;
/** A project character joined with its avatar's display fields. */
export type ProjectCharacterJoined = ProjectCharacterRow &
  Pick<Selectable<AvatarsTable>, 'image_key' | 'prompt' | 'name' | 'catalogue_actor_id'> & {
    avatar_x: number | null;
    avatar_y: number | null;
    avatar_width: number | null;
    avatar_height: number | null;
    avatar_rotation: number;
  };

export const projectsRepository = {
  async listByUser(db: Executor, userId: number): Promise<ProjectRow[]> {
    return db
      .selectFrom('projects')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** The project if it exists and belongs to the user; null otherwise (the caller answers 404 either way). */
  async findOwned(db: Executor, userId: number, id: number): Promise<ProjectRow | null> {
    return firstOrNull(db.selectFrom('projects').selectAll().where('id', '=', id).where('user_id', '=', userId));
  },

  /** What pricing a Realistic video needs of the user's projects among `ids`: script and speed, or the recording's length. */
  async scriptsOf(
    db: Executor,
    userId: number,
    ids: number[],
  ): Promise<
    {
      id: number;
      script: string;
      voice_speed: number;
      render_quality: string;
      voice_source: string;
      voice_over_duration_sec: number | null;
    }[]
  > {
    if (ids.length === 0) return [];
    return db
      .selectFrom('projects')
      .select(['id', 'script', 'voice_speed', 'render_quality', 'voice_source', 'voice_over_duration_sec'])
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
  },

  /**
   * Locks the project's row for the rest of the transaction on PostgreSQL, so two requests that check "is something
   * already running for this project?" and then queue cannot both pass. SQLite runs one transaction at a time.
   */
  async lockForQueueing(db: Executor, dialect: DialectName, id: number): Promise<void> {
    if (dialect === 'postgres') await db.selectFrom('projects').select('id').where('id', '=', id).forUpdate().execute();
  },

  /**
   * Stores the check of the cut-out made from `fileKey`, only while that is still the project's product image;
   * a new check is of a new cut-out, so an earlier acceptance goes.
   */
  async setCutoutCheck(
    db: Executor,
    id: number,
    fileKey: string,
    check: { verdict: string; notes: string },
  ): Promise<void> {
    await db
      .updateTable('projects')
      .set({
        cutout_file_key: fileKey,
        cutout_verdict: check.verdict,
        cutout_notes: check.notes,
        cutout_accepted_at: null,
      })
      .where('id', '=', id)
      .where('file_key', '=', fileKey)
      .execute();
  },

  /** Records that the owner uses the needs-review cut-out of `fileKey` as it is. */
  async acceptCutout(db: Executor, userId: number, id: number, fileKey: string, at: string): Promise<void> {
    await db
      .updateTable('projects')
      .set({ cutout_accepted_at: at })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('cutout_file_key', '=', fileKey)
      .execute();
  },

  async findById(db: Executor, id: number): Promise<ProjectRow | null> {
    return firstOrNull(db.selectFrom('projects').selectAll().where('id', '=', id));
  },

  async insert(
    db: Executor,
    p: { userId: number; name: string; fileKey: string | null; style?: ProjectStyleDefaults },
  ): Promise<ProjectRow> {
    const at = now();
    const values: Insertable<ProjectsTable> = {
      ...p.style,
      user_id: p.userId,
      name: p.name,
      file_key: p.fileKey,
      script: '',
      language: 'english',
      accent: 'american',
      created_at: at,
      updated_at: at,
    };
    return db.insertInto('projects').values(values).returningAll().executeTakeFirstOrThrow();
  },

  async update(
    db: Executor,
    userId: number,
    id: number,
    patch: Pick<
      Updateable<ProjectsTable>,
      | 'name'
      | 'script'
      | 'language'
      | 'accent'
      | 'file_key'
      | 'caption_style'
      | 'cta_text'
      | 'music_key'
      | 'caption_font'
      | 'primary_colour'
      | 'secondary_colour'
      | 'outro'
      | 'render_quality'
      | 'voice_speed'
      | 'voice_source'
      | 'voice_over_key'
      | 'voice_over_duration_sec'
      | 'voice_id'
      | 'aspects'
    >,
  ): Promise<ProjectRow | null> {
    const res = await db
      .updateTable('projects')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    return this.findOwned(db, userId, id);
  },

  /** Deletes the project (its characters go by cascade); returns the storage keys it referenced, or null. */
  async delete(db: Executor, userId: number, id: number): Promise<string[] | null> {
    const project = await this.findOwned(db, userId, id);
    if (!project) return null;
    const merged = await db
      .selectFrom('project_characters')
      .select('merged_key')
      .where('project_id', '=', id)
      .where('merged_key', 'is not', null)
      .execute();
    const res = await db.deleteFrom('projects').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) return null;
    return [project.file_key, project.music_key, project.voice_over_key, ...merged.map((m) => m.merged_key)].filter(
      (k): k is string => !!k,
    );
  },

  /** Characters of the given projects with their avatar's image and bounds, in the order they were added. */
  async charactersOf(db: Executor, projectIds: number[]): Promise<ProjectCharacterJoined[]> {
    if (projectIds.length === 0) return [];
    return db
      .selectFrom('project_characters as pc')
      .innerJoin('avatars as a', 'a.id', 'pc.avatar_id')
      .selectAll('pc')
      .select([
        'a.image_key',
        'a.prompt',
        'a.name',
        'a.catalogue_actor_id',
        'a.x as avatar_x',
        'a.y as avatar_y',
        'a.width as avatar_width',
        'a.height as avatar_height',
        'a.rotation as avatar_rotation',
      ])
      .where('pc.project_id', 'in', projectIds)
      .where('a.deleted_at', 'is', null)
      .orderBy('pc.id', 'asc')
      .execute();
  },

  async findCharacter(db: Executor, projectId: number, avatarId: number): Promise<ProjectCharacterRow | null> {
    return firstOrNull(
      db
        .selectFrom('project_characters')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('avatar_id', '=', avatarId),
    );
  },

  /**
   * Makes `avatarIds` the project's selection: new ones are added (placement seeded from the avatar's bounds),
   * existing ones re-selected, the rest deselected, and deselected rows without merge results removed.
   */
  async setSelectedCharacters(db: Executor, projectId: number, avatarIds: number[]): Promise<void> {
    const at = now();
    const existing = await db
      .selectFrom('project_characters')
      .select(['avatar_id'])
      .where('project_id', '=', projectId)
      .execute();
    const have = new Set(existing.map((r) => r.avatar_id));
    const wanted = [...new Set(avatarIds)];
    const toAdd = wanted.filter((id) => !have.has(id));
    if (toAdd.length > 0) {
      const avatars = await db
        .selectFrom('avatars')
        .select(['id', 'x', 'y', 'width', 'height', 'rotation'])
        .where('id', 'in', toAdd)
        .execute();
      const byId = new Map(avatars.map((a) => [a.id, a]));
      await db
        .insertInto('project_characters')
        .values(
          toAdd.map((avatarId) => {
            const a = byId.get(avatarId);
            return {
              project_id: projectId,
              avatar_id: avatarId,
              selected: 1,
              x: a?.x ?? null,
              y: a?.y ?? null,
              width: a?.width ?? null,
              height: a?.height ?? null,
              rotation: a?.rotation ?? 0,
              mask_placement: null,
              merge_status: null,
              merged_key: null,
              merge_job_id: null,
              created_at: at,
              updated_at: at,
            };
          }),
        )
        .onConflict((oc) => oc.columns(['project_id', 'avatar_id']).doNothing())
        .execute();
    }
    if (wanted.length > 0) {
      await db
        .updateTable('project_characters')
        .set({ selected: 1, updated_at: at })
        .where('project_id', '=', projectId)
        .where('avatar_id', 'in', wanted)
        .where('selected', '=', 0)
        .execute();
    }
    let deselect = db
      .updateTable('project_characters')
      .set({ selected: 0, updated_at: at })
      .where('project_id', '=', projectId);
    if (wanted.length > 0) deselect = deselect.where('avatar_id', 'not in', wanted);
    await deselect.execute();
    await db
      .deleteFrom('project_characters')
      .where('project_id', '=', projectId)
      .where('selected', '=', 0)
      .where('merged_key', 'is', null)
      .where((eb) => eb.or([eb('merge_status', 'is', null), eb('merge_status', 'in', ['not_merged', 'failed'])]))
      .execute();
  },

  /**
   * A merge job's end: the character it is merging (unless a newer merge took it over) becomes merged with its
   * image, or failed (a new merge may start).
   */
  async finishMergesOfJob(db: Executor, jobId: number, end: { merged: string } | 'failed'): Promise<void> {
    await db
      .updateTable('project_characters')
      .set(
        end === 'failed'
          ? { merge_status: 'failed', updated_at: now() }
          : { merge_status: 'merged', merged_key: end.merged, updated_at: now() },
      )
      .where('merge_job_id', '=', jobId)
      .execute();
  },

  /**
   * Records a merge starting for one project character (its job and placement). Creates the row when the
   * character was never selected, so a merge started from the picker still has somewhere to land.
   */
  async setMergeState(
    db: Executor,
    projectId: number,
    avatarId: number,
    state: { status: MergeStatus; mergedKey?: string | null; jobId?: number | null; maskPlacement?: string | null },
  ): Promise<void> {
    const at = now();
    const patch: Updateable<ProjectCharactersTable> = { merge_status: state.status, updated_at: at };
    if (state.mergedKey !== undefined) patch.merged_key = state.mergedKey;
    if (state.jobId !== undefined) patch.merge_job_id = state.jobId;
    if (state.maskPlacement !== undefined) patch.mask_placement = state.maskPlacement;
    await db
      .insertInto('project_characters')
      .values({
        project_id: projectId,
        avatar_id: avatarId,
        selected: 1,
        x: null,
        y: null,
        width: null,
        height: null,
        rotation: 0,
        mask_placement: state.maskPlacement ?? null,
        merge_status: state.status,
        merged_key: state.mergedKey ?? null,
        merge_job_id: state.jobId ?? null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['project_id', 'avatar_id']).doUpdateSet(patch))
      .execute();
  },
};
