import type { Insertable, Selectable, Updateable } from 'kysely';
import { firstOrNull, now, type DialectName, type Executor } from '../database.ts';
import type {
  CharacterTypesTable,
  GeneratedCharactersTable,
  HookPacksTable,
  HookVariantsTable,
  PreviewCharactersTable,
} from '../tables/hook-packs.ts';
import type { JobsTable } from '../tables/jobs.ts';

export type HookPackRow = Selectable<HookPacksTable>;
/** The style a new pack copies from its owner's brand kit. */
export type BrandStyleDefaults = Pick<
  Insertable<HookPacksTable>,
  'caption_style' | 'cta_text' | 'caption_font' | 'primary_colour' | 'secondary_colour' | 'outro'
>;
export type CharacterTypeRow = Selectable<CharacterTypesTable>;
export type GeneratedCharacterRow = Selectable<GeneratedCharactersTable>;
export type PreviewCharacterRow = Selectable<PreviewCharactersTable>;
export type HookVariantRow = Selectable<HookVariantsTable>;
export type HookVariantWithJob = HookVariantRow & { job: Selectable<JobsTable> | null };

type PackPatch = Pick<
  Updateable<HookPacksTable>,
  | 'name'
  | 'caption_style'
  | 'cta_text'
  | 'music_key'
  | 'caption_font'
  | 'primary_colour'
  | 'secondary_colour'
  | 'outro'
  | 'render_quality'
  | 'voice_speed'
  | 'voice_id'
  | 'aspects'
  | 'language'
  | 'accent'
  | 'message'
  | 'product_details'
  | 'product_key'
  | 'cutout_key'
  | 'mask_key'
  | 'detected_shape'
  | 'detected_category'
  | 'cutout_verdict'
  | 'cutout_notes'
  | 'cutout_accepted_at'
  | 'status'
>;

/**
 * Hook packs and everything that hangs off them. Calls that take a userId answer only for that user's rows;
 * the by-id lookups without one are for job handlers, which reload state from ids in their payload.
 */
export const hookPacksRepository = {
  listByUser(db: Executor, userId: number): Promise<HookPackRow[]> {
    return db
      .selectFrom('hook_packs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  async findOwned(db: Executor, userId: number, id: number): Promise<HookPackRow | null> {
    return firstOrNull(db.selectFrom('hook_packs').selectAll().where('id', '=', id).where('user_id', '=', userId));
  },

  async findById(db: Executor, id: number): Promise<HookPackRow | null> {
    return firstOrNull(db.selectFrom('hook_packs').selectAll().where('id', '=', id));
  },

  insert(
    db: Executor,
    p: Pick<Insertable<HookPacksTable>, 'user_id' | 'name' | 'language' | 'accent' | 'file_token'> & BrandStyleDefaults,
  ): Promise<HookPackRow> {
    const at = now();
    return db
      .insertInto('hook_packs')
      .values({ ...p, status: 'created', created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async update(db: Executor, id: number, patch: PackPatch): Promise<void> {
    await db
      .updateTable('hook_packs')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', id)
      .execute();
  },

  /** Deletes the pack only while it is an untouched draft (no product, status created); true if it did. */
  async deleteDraft(db: Executor, id: number): Promise<boolean> {
    const res = await db
      .deleteFrom('hook_packs')
      .where('id', '=', id)
      .where('status', '=', 'created')
      .where('product_key', 'is', null)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  },

  /** Sets the status only if it is currently `from` (e.g. generating_videos → videos_ready once). */
  async transition(db: Executor, id: number, from: string, to: string): Promise<boolean> {
    const res = await db
      .updateTable('hook_packs')
      .set({ status: to, updated_at: now() })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  // Character types -----------------------------------------------------------------------------------------

  typesOf(db: Executor, packId: number): Promise<CharacterTypeRow[]> {
    return db
      .selectFrom('character_types')
      .selectAll()
      .where('hook_pack_id', '=', packId)
      .orderBy('order_index')
      .orderBy('id')
      .execute();
  },

  async findType(db: Executor, packId: number, typeId: number): Promise<CharacterTypeRow | null> {
    return firstOrNull(
      db.selectFrom('character_types').selectAll().where('id', '=', typeId).where('hook_pack_id', '=', packId),
    );
  },

  /** Replaces the pack's types; characters already generated keep existing (their type link becomes null). */
  async replaceTypes(
    db: Executor,
    packId: number,
    types: Array<{ description: string; order_index: number }>,
  ): Promise<CharacterTypeRow[]> {
    await db.deleteFrom('character_types').where('hook_pack_id', '=', packId).execute();
    const at = now();
    const out: CharacterTypeRow[] = [];
    for (const t of types) {
      out.push(
        await db
          .insertInto('character_types')
          .values({ hook_pack_id: packId, description: t.description, order_index: t.order_index, created_at: at })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    return out.sort((a, b) => a.order_index - b.order_index || a.id - b.id);
  },

  /**
   * Locks the pack's row for the rest of the transaction on PostgreSQL, so two requests that check "is this step's
   * work already queued or done?" and then queue cannot both pass. SQLite runs one transaction at a time.
   */
  async lockForQueueing(db: Executor, dialect: DialectName, id: number): Promise<void> {
    if (dialect === 'postgres')
      await db.selectFrom('hook_packs').select('id').where('id', '=', id).forUpdate().execute();
  },

  /** Whether the job is still waiting or running (a preview's or characters' job; null when there is none). */
  async jobIsActive(db: Executor, jobId: number | null): Promise<boolean> {
    if (jobId === null) return false;
    const job = await db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirst();
    return job?.status === 'queued' || job?.status === 'in_progress';
  },

  // Generated characters ------------------------------------------------------------------------------------

  charactersOf(db: Executor, packId: number, onlySelected = false): Promise<GeneratedCharacterRow[]> {
    let q = db.selectFrom('generated_characters').selectAll().where('hook_pack_id', '=', packId);
    if (onlySelected) q = q.where('selected', '=', 1);
    return q.orderBy('id').execute();
  },

  charactersByIds(db: Executor, packId: number, ids: readonly number[]): Promise<GeneratedCharacterRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('generated_characters')
      .selectAll()
      .where('hook_pack_id', '=', packId)
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
  },

  async findCharacter(db: Executor, id: number): Promise<GeneratedCharacterRow | null> {
    return firstOrNull(db.selectFrom('generated_characters').selectAll().where('id', '=', id));
  },

  /** The character if its pack belongs to the user. */
  async findOwnedCharacter(db: Executor, userId: number, id: number): Promise<GeneratedCharacterRow | null> {
    return firstOrNull(
      db
        .selectFrom('generated_characters as c')
        .innerJoin('hook_packs as p', 'p.id', 'c.hook_pack_id')
        .selectAll('c')
        .where('c.id', '=', id)
        .where('p.user_id', '=', userId),
    );
  },

  /** How many characters the pack already has with this prompt (the next index of the description's people). */
  async countWithPrompt(db: Executor, packId: number, prompt: string): Promise<number> {
    const r = await db
      .selectFrom('generated_characters')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('hook_pack_id', '=', packId)
      .where('prompt', '=', prompt)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  async insertCharacters(
    db: Executor,
    rows: Array<Pick<Insertable<GeneratedCharactersTable>, 'hook_pack_id' | 'character_type_id' | 'seed' | 'prompt'>>,
  ): Promise<GeneratedCharacterRow[]> {
    const at = now();
    const out: GeneratedCharacterRow[] = [];
    for (const r of rows) {
      out.push(
        await db
          .insertInto('generated_characters')
          .values({
            ...r,
            image_key: null,
            selected: 0,
            status: 'pending',
            job_id: null,
            avatar_id: null,
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    return out;
  },

  /** The pack's character made from one of the owner's creators (decision 207), if it has one. */
  async findCreatorCharacter(db: Executor, packId: number, avatarId: number): Promise<GeneratedCharacterRow | null> {
    return firstOrNull(
      db
        .selectFrom('generated_characters')
        .selectAll()
        .where('hook_pack_id', '=', packId)
        .where('avatar_id', '=', avatarId)
        .orderBy('id'),
    );
  },

  /** A creator joins the pack as a ready, selected character: their photo is the portrait, nothing is drawn. */
  insertCreatorCharacter(
    db: Executor,
    row: { hook_pack_id: number; avatar_id: number; prompt: string; image_key: string },
  ): Promise<GeneratedCharacterRow> {
    const at = now();
    return db
      .insertInto('generated_characters')
      .values({
        ...row,
        character_type_id: null,
        seed: `creator-${row.avatar_id}`,
        selected: 1,
        status: 'ready',
        job_id: null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async updateCharacters(
    db: Executor,
    ids: readonly number[],
    patch: Pick<Updateable<GeneratedCharactersTable>, 'job_id' | 'status' | 'image_key' | 'seed' | 'selected'>,
  ): Promise<void> {
    if (ids.length === 0) return;
    await db
      .updateTable('generated_characters')
      .set({ ...patch, updated_at: now() })
      .where('id', 'in', [...ids])
      .execute();
  },

  // Previews ------------------------------------------------------------------------------------------------

  previewsOf(db: Executor, packId: number): Promise<PreviewCharacterRow[]> {
    return db.selectFrom('preview_characters').selectAll().where('hook_pack_id', '=', packId).orderBy('id').execute();
  },

  previewsByIds(db: Executor, ids: readonly number[]): Promise<PreviewCharacterRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('preview_characters')
      .selectAll()
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
  },

  async findOwnedPreview(db: Executor, userId: number, id: number): Promise<PreviewCharacterRow | null> {
    return firstOrNull(
      db
        .selectFrom('preview_characters as v')
        .innerJoin('hook_packs as p', 'p.id', 'v.hook_pack_id')
        .selectAll('v')
        .where('v.id', '=', id)
        .where('p.user_id', '=', userId),
    );
  },

  async findPreview(db: Executor, id: number): Promise<PreviewCharacterRow | null> {
    return firstOrNull(db.selectFrom('preview_characters').selectAll().where('id', '=', id));
  },

  async findPreviewOfCharacter(db: Executor, packId: number, characterId: number): Promise<PreviewCharacterRow | null> {
    return firstOrNull(
      db
        .selectFrom('preview_characters')
        .selectAll()
        .where('hook_pack_id', '=', packId)
        .where('generated_character_id', '=', characterId)
        .orderBy('id', 'desc'),
    );
  },

  /**
   * One preview per character: a new placement resets the existing row (same id, image cleared, unapproved)
   * rather than piling up duplicates.
   */
  async upsertPreview(
    db: Executor,
    p: {
      hook_pack_id: number;
      generated_character_id: number;
      position_x: number;
      position_y: number;
      scale: number;
      rotation: number;
      mask_key: string | null;
    },
  ): Promise<PreviewCharacterRow> {
    const existing = await this.findPreviewOfCharacter(db, p.hook_pack_id, p.generated_character_id);
    const at = now();
    const reset = {
      position_x: p.position_x,
      position_y: p.position_y,
      scale: p.scale,
      rotation: p.rotation,
      mask_key: p.mask_key,
      image_key: null,
      errors: null,
      approved: 0,
      // A new picture waits for the user's judgement (decision 198).
      status: 'pending' as const,
      job_id: null,
      updated_at: at,
    };
    if (existing) {
      await db.updateTable('preview_characters').set(reset).where('id', '=', existing.id).execute();
      return { ...existing, ...reset };
    }
    return db
      .insertInto('preview_characters')
      .values({
        hook_pack_id: p.hook_pack_id,
        generated_character_id: p.generated_character_id,
        ...reset,
        created_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async updatePreviews(
    db: Executor,
    ids: readonly number[],
    patch: Pick<
      Updateable<PreviewCharactersTable>,
      'job_id' | 'image_key' | 'errors' | 'approved' | 'status' | 'position_x' | 'position_y' | 'scale' | 'rotation'
    >,
  ): Promise<void> {
    if (ids.length === 0) return;
    await db
      .updateTable('preview_characters')
      .set({ ...patch, updated_at: now() })
      .where('id', 'in', [...ids])
      .execute();
  },

  /** Writes a job's outcome on a preview only while the preview is still that job's (a newer request may own it). */
  async updatePreviewOfJob(
    db: Executor,
    id: number,
    jobId: number,
    patch: Pick<Updateable<PreviewCharactersTable>, 'image_key' | 'errors'>,
  ): Promise<void> {
    await db
      .updateTable('preview_characters')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', id)
      // No job at all (a row older than preview jobs) is anyone's, as in the handler's own check.
      .where((eb) => eb.or([eb('job_id', '=', jobId), eb('job_id', 'is', null)]))
      .execute();
  },

  approvedPreviews(db: Executor, packId: number): Promise<PreviewCharacterRow[]> {
    return db
      .selectFrom('preview_characters')
      .selectAll()
      .where('hook_pack_id', '=', packId)
      .where('approved', '=', 1)
      .orderBy('id')
      .execute();
  },

  // Variants ------------------------------------------------------------------------------------------------

  async replaceVariants(
    db: Executor,
    packId: number,
    variants: Array<{
      variant_index: number;
      generated_character_id: number;
      hook_text: string;
      variant_id: string | null;
      cta_text: string | null;
    }>,
  ): Promise<HookVariantRow[]> {
    await db.deleteFrom('hook_variants').where('hook_pack_id', '=', packId).execute();
    const at = now();
    const out: HookVariantRow[] = [];
    for (const v of variants) {
      out.push(
        await db
          .insertInto('hook_variants')
          .values({ hook_pack_id: packId, ...v, job_id: null, created_at: at })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    return out;
  },

  async setVariantJob(db: Executor, variantId: number, jobId: number): Promise<void> {
    await db.updateTable('hook_variants').set({ job_id: jobId }).where('id', '=', variantId).execute();
  },

  /** Points the pack's video `index` from one job to another, only if it still shows `fromJobId`. */
  async replaceVariantJob(
    db: Executor,
    packId: number,
    index: number,
    fromJobId: number,
    toJobId: number,
  ): Promise<boolean> {
    const r = await db
      .updateTable('hook_variants')
      .set({ job_id: toJobId })
      .where('hook_pack_id', '=', packId)
      .where('variant_index', '=', index)
      .where('job_id', '=', fromJobId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  /** Which job each of the packs' videos shows now: `${packId}:${index}` → job id. */
  async variantJobIds(db: Executor, packIds: number[]): Promise<Map<string, number>> {
    if (packIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('hook_variants')
      .select(['hook_pack_id', 'variant_index', 'job_id'])
      .where('hook_pack_id', 'in', packIds)
      .execute();
    return new Map(
      rows.flatMap((r) => (r.job_id === null ? [] : [[`${r.hook_pack_id}:${r.variant_index}`, r.job_id] as const])),
    );
  },

  async findVariant(db: Executor, packId: number, index: number): Promise<HookVariantRow | null> {
    return firstOrNull(
      db.selectFrom('hook_variants').selectAll().where('hook_pack_id', '=', packId).where('variant_index', '=', index),
    );
  },

  /** The pack's variants in order, each with its job row (null when the job was deleted). */
  async variantsWithJobs(db: Executor, packId: number): Promise<HookVariantWithJob[]> {
    const variants = await db
      .selectFrom('hook_variants')
      .selectAll()
      .where('hook_pack_id', '=', packId)
      .orderBy('variant_index')
      .execute();
    const jobIds = variants.map((v) => v.job_id).filter((id): id is number => id !== null);
    const jobs = jobIds.length ? await db.selectFrom('jobs').selectAll().where('id', 'in', jobIds).execute() : [];
    const byId = new Map(jobs.map((j) => [j.id, j]));
    return variants.map((v) => ({ ...v, job: v.job_id !== null ? (byId.get(v.job_id) ?? null) : null }));
  },
};
