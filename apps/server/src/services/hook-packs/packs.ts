import { randomBytes, randomUUID } from 'node:crypto';
import {
  INSUFFICIENT_CREDITS,
  MaskPlacement,
  QualityReport,
  MESSAGES,
  PRICES,
  REALISTIC_HOOK_SECONDS,
  VALIDATION,
  VideoQuality,
  realisticVideoCost,
  aspectTag,
  DEFAULT_ASPECT,
  type Accent,
  type CharacterType,
  type GeneratedCharacter,
  type HookPack,
  type HookPackStatus,
  type HookPackSummary,
  type UpdateHookPackRequest,
  type Job,
  type Language,
  type PreviewCharacter,
} from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import {
  hookPacksRepository as repo,
  type GeneratedCharacterRow,
  type HookPackRow,
  type PreviewCharacterRow,
} from '../../db/repositories/hook-packs.ts';
import type { Database } from '../../db/schema.ts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { conflict, HttpError, notFound, unprocessable } from '../../errors.ts';
import { storeUploadedImage, type UploadedFile } from '../../uploads/index.ts';
import { autoPlacement, clampPlacement, type Placement } from './placement.ts';
import { checkStatusChange } from './status.ts';
import {
  HOOK_ANGLES,
  LIMITS,
  MATRIX_MESSAGES,
  mergeHookLines,
  writeHookLines,
  type HookLine,
  type HookLinesResponse,
  type HookMatrix,
} from '@hookreel/contracts';
import { aiColumns, aspectFileName, videoFileName } from '../video/index.ts';
import { createJob, newBatchId, packUpgradesUnderway, submitJobs, withEstimates } from '../jobs/index.ts';
import { assertInventedCharacters, assertRealisticAvailable } from '../video/index.ts';
import { assertCoversRequest, toHundredths } from '../billing/index.ts';
import { generateCharactersJob, generatePreviewJob, processProductJob, renderHookVideoJob } from './jobs.ts';
import { extraAspectsOf, videoStyleOf } from '../video/index.ts';
import { storedAspectsOf } from '../video/index.ts';
import { brandStyleOf, newStyleDefaults } from '../video/index.ts';
import { voiceAfterChange } from '../voices/index.ts';
import { cellIdOfPair, planMatrix, type PlannedVariant } from './matrix.ts';
import { assertCutoutUsable, packCutoutCheck, recordCutoutAccepted } from './cutout-check.ts';

export const UNTITLED_HOOK_PACK = 'Untitled Hook Pack';
const packNotFound = () => notFound('Hook pack not found');
const characterNotFound = () => notFound(MESSAGES.hookPacks.characterNotFound);
const previewNotFound = () => notFound(MESSAGES.hookPacks.previewNotFound);

// Ownership -------------------------------------------------------------------------------------------------

/** The pack if it is the user's; another user's pack is exactly as missing as one that does not exist. */
export async function getOwnedPack(ctx: Pick<AppContext, 'db'>, userId: number, id: number): Promise<HookPackRow> {
  const row = await repo.findOwned(ctx.db.kysely, userId, id);
  if (!row) throw packNotFound();
  return row;
}

// Packs -----------------------------------------------------------------------------------------------------

export async function listPacks(ctx: AppContext, userId: number): Promise<HookPackSummary[]> {
  const rows = await repo.listByUser(ctx.db.kysely, userId);
  const upgrades = await packUpgradesUnderway(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    product_url: r.product_key,
    product_details: r.product_details,
    created_at: r.created_at,
    realistic_upgrades: upgrades.get(r.id) ?? null,
  }));
}

export async function getPack(ctx: AppContext, userId: number, id: number): Promise<HookPack> {
  let pack = await getOwnedPack(ctx, userId, id);
  if (await reconcileVideosReady(ctx, pack)) pack = await getOwnedPack(ctx, userId, id);
  const db = ctx.db.kysely;
  const [types, characters, previews] = await Promise.all([
    repo.typesOf(db, id),
    repo.charactersOf(db, id),
    repo.previewsOf(db, id),
  ]);
  return {
    ...packFields(pack),
    character_types: types.map(toType),
    generated_characters: characters.map(toCharacter),
    preview_characters: previews.map(toPreview),
  };
}

export async function createPack(
  ctx: AppContext,
  userId: number,
  input: { name?: string | undefined; language: Language; accent: Accent },
): Promise<HookPack> {
  const row = await repo.insert(ctx.db.kysely, {
    user_id: userId,
    name: input.name ? input.name : null,
    language: input.language,
    accent: input.accent,
    file_token: randomBytes(12).toString('base64url'),
    ...(await newStyleDefaults(ctx, userId)),
  });
  return getPack(ctx, userId, row.id);
}

export async function updatePack(
  ctx: AppContext,
  userId: number,
  id: number,
  patch: UpdateHookPackRequest,
): Promise<HookPack> {
  const stored = await getOwnedPack(ctx, userId, id);
  const voiceId = await voiceAfterChange(ctx, {
    picked: patch.voice_id,
    stored: stored.voice_id,
    language: patch.language ?? (stored.language as Language),
  });
  if (patch.status !== undefined) {
    const current = await getPack(ctx, userId, id);
    const videos = (await repo.variantsWithJobs(ctx.db.kysely, id)).filter((v) => v.job).length;
    const after = { ...current, message: patch.message ?? current.message };
    if (patch.status !== current.status) checkStatusChange(after, patch.status as HookPackStatus, videos);
  }
  // The API says `quality`; the column is render_quality. The outro switch is stored as 0/1; frame shapes as a
  // comma list.
  const { quality, outro, aspects, ...rest } = patch;
  const changes = Object.fromEntries(
    Object.entries({
      ...rest,
      voice_id: voiceId,
      render_quality: quality,
      outro: outro === undefined ? undefined : outro ? 1 : 0,
      aspects: aspects?.join(','),
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(changes).length > 0)
    await repo.update(ctx.db.kysely, id, changes as Parameters<typeof repo.update>[2]);
  return getPack(ctx, userId, id);
}

/**
 * DELETE /hooks/{id}: discards a draft the wizard created for an upload the server then refused, so no empty
 * pack is left behind. Only an untouched draft (no product yet, nothing generated) can go: a pack with work in
 * it answers 409 and keeps everything.
 */
export async function discardDraftPack(ctx: AppContext, userId: number, id: number): Promise<void> {
  await getOwnedPack(ctx, userId, id);
  if (!(await repo.deleteDraft(ctx.db.kysely, id))) throw conflict(MESSAGES.hookPacks.notADraft);
}

/**
 * POST /hooks/upload-product: the whole multipart body has been read (one file, at most 10 MB) before this;
 * ownership is checked before anything is stored, then the image is sanitised and stored. A new product
 * invalidates the old cut-out and analysis.
 */
export async function uploadProduct(
  ctx: AppContext,
  userId: number,
  fields: Record<string, string>,
  file: UploadedFile | null,
): Promise<{ product_url: string; hook_pack_id: number }> {
  const packId = parseId(fields.hook_pack_id, 'hook_pack_id');
  const pack = await getOwnedPack(ctx, userId, packId);
  if (!file || file.buffer.length === 0) throw unprocessable(VALIDATION.imageRequired);
  const stored = await storeUploadedImage(ctx, { userId, area: 'hook-packs', buffer: file.buffer });
  await repo.update(ctx.db.kysely, packId, {
    product_key: stored.key,
    cutout_key: null,
    mask_key: null,
    detected_shape: null,
    detected_category: null,
    cutout_verdict: null,
    cutout_notes: null,
    cutout_accepted_at: null,
    status: 'product_uploaded',
  });
  const old = [pack.product_key, pack.cutout_key, pack.mask_key].filter((k): k is string => !!k);
  await Promise.all(old.map((k) => ctx.files.delete(k).catch(() => undefined)));
  return { product_url: stored.key, hook_pack_id: packId };
}

/** POST /hooks/{id}/accept-cutout: the user uses a needs-review cut-out as it is (decision 214). */
export async function acceptCutout(ctx: AppContext, userId: number, packId: number): Promise<HookPack> {
  await recordCutoutAccepted(ctx, userId, packId);
  return getPack(ctx, userId, packId);
}

/** POST /hooks/process-step1: queues the cut-out and analysis of the product; free (no credits). */
export async function processProduct(
  ctx: AppContext,
  userId: number,
  packId: number,
): Promise<{ job_id: number; hook_pack_id: number }> {
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const pack = await repo.findOwned(trx, userId, packId);
    if (!pack) throw packNotFound();
    if (!pack.product_key) throw unprocessable(MESSAGES.hookPacks.productUrlNotFound);
    const id = await createJob(trx, processProductJob, {
      userId,
      payload: { hookPackId: packId, productKey: pack.product_key },
      projectName: packName(pack),
      hookPackId: packId,
    });
    return { jobIds: [id] };
  });
  return { job_id: jobIds[0] as number, hook_pack_id: packId };
}

// Character types -------------------------------------------------------------------------------------------

export async function saveCharacterTypes(
  ctx: AppContext,
  userId: number,
  packId: number,
  types: Array<{ description: string; order_index: number }>,
): Promise<CharacterType[]> {
  await getOwnedPack(ctx, userId, packId);
  const rows = await ctx.db.kysely.transaction().execute((trx) => repo.replaceTypes(trx, packId, types));
  return rows.map(toType);
}

// Generated characters --------------------------------------------------------------------------------------

/**
 * POST /hooks/generate-characters: `count` pending characters per type (or for one type, or for a 'Generate
 * More' description), their credits held and their rendering job created in one transaction. Seeds are the
 * description plus the description's next index in the pack, so a description always yields the same people.
 */
export async function generateCharacters(
  ctx: AppContext,
  userId: number,
  q: { hook_pack_id: number; count: number; character_type_id?: number | undefined; description?: string | undefined },
): Promise<{ job_id: number; hook_pack_id: number; characters: GeneratedCharacter[] }> {
  const { jobIds, created } = await submitJobs(ctx, userId, async (trx) => {
    const pack = await repo.findOwned(trx, userId, q.hook_pack_id);
    if (!pack) throw packNotFound();
    await repo.lockForQueueing(trx, ctx.db.dialect, pack.id);
    let sources: Array<{ typeId: number | null; description: string }>;
    if (q.character_type_id !== undefined) {
      const type = await repo.findType(trx, pack.id, q.character_type_id);
      if (!type) throw notFound('Character type not found');
      sources = [{ typeId: type.id, description: q.description ?? type.description }];
    } else if (q.description !== undefined) {
      sources = [{ typeId: null, description: q.description }];
    } else {
      const types = await repo.typesOf(trx, pack.id);
      if (types.length === 0) throw unprocessable(VALIDATION.characterTypesMin);
      sources = types.map((t) => ({ typeId: t.id, description: t.description }));
    }
    // The Character Type step's Continue generates each type's people once. Repeated from a second tab (its own
    // Idempotency-Key) while they render or after they are made, it would charge for the same step again: 409.
    // A type's people are known by their description, as type ids change each time the step saves. 'Generate
    // More' (no type) is a new order every time; failed characters were refunded and may be made again.
    const live = new Set(
      (await repo.charactersOf(trx, pack.id))
        // A creator's character bears their name, not a type's description (decision 207).
        .filter((c) => c.status !== 'failed' && c.avatar_id === null)
        .map((c) => normalise(c.prompt)),
    );
    if (sources.some((s) => s.typeId !== null && live.has(normalise(s.description)))) {
      throw conflict(MESSAGES.server.charactersInProgress);
    }
    const rows: Array<{ hook_pack_id: number; character_type_id: number | null; seed: string; prompt: string }> = [];
    for (const s of sources) {
      const prompt = s.description.trim();
      const start = await repo.countWithPrompt(trx, pack.id, prompt);
      for (let i = 0; i < q.count; i++) {
        rows.push({
          hook_pack_id: pack.id,
          character_type_id: s.typeId,
          prompt,
          seed: characterSeed(prompt, start + i),
        });
      }
    }
    const chars = await repo.insertCharacters(trx, rows);
    const jobId = await createJob(trx, generateCharactersJob, {
      userId,
      payload: { hookPackId: pack.id, characterIds: chars.map((c) => c.id) },
      projectName: packName(pack),
      hookPackId: pack.id,
      price: 'characterGeneration',
      units: chars.length,
      insufficientMessage: INSUFFICIENT_CREDITS.characters,
    });
    await repo.updateCharacters(
      trx,
      chars.map((c) => c.id),
      { job_id: jobId },
    );
    return { jobIds: [jobId], created: chars.map((c) => ({ ...c, job_id: jobId })) };
  });
  return { job_id: jobIds[0] as number, hook_pack_id: q.hook_pack_id, characters: created.map(toCharacter) };
}

/** Normalised so 'Young runner' and ' young  runner ' are the same people. */
export const characterSeed = (description: string, index: number): string => `${normalise(description)}#${index}`;

const normalise = (description: string): string => description.trim().replace(/\s+/g, ' ').toLowerCase();

export async function listCharacters(
  ctx: AppContext,
  userId: number,
  packId: number,
  onlySelected: boolean,
): Promise<GeneratedCharacter[]> {
  await getOwnedPack(ctx, userId, packId);
  return (await repo.charactersOf(ctx.db.kysely, packId, onlySelected)).map(toCharacter);
}

/**
 * POST /hooks/{id}/creators: one of the caller's own creators joins the pack as a character (decision 207), ready
 * and selected: their photo is the portrait, so nothing is drawn or charged. Asked again, the same character is
 * selected and returned. Another user's creator (or a library actor) is as missing as one that does not exist: 404.
 */
export async function addCreatorToPack(
  ctx: AppContext,
  userId: number,
  packId: number,
  creatorId: number,
): Promise<GeneratedCharacter> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const pack = await repo.findOwned(trx, userId, packId);
    if (!pack) throw packNotFound();
    const creator = await avatarsRepository.findOwn(trx, userId, creatorId);
    if (!creator) throw notFound(MESSAGES.hookPacks.creatorNotFound);
    await repo.lockForQueueing(trx, ctx.db.dialect, pack.id);
    const existing = await repo.findCreatorCharacter(trx, pack.id, creator.id);
    if (existing) {
      if (existing.selected !== 1) await repo.updateCharacters(trx, [existing.id], { selected: 1 });
      return toCharacter({ ...existing, selected: 1 });
    }
    const row = await repo.insertCreatorCharacter(trx, {
      hook_pack_id: pack.id,
      avatar_id: creator.id,
      prompt: creator.name ?? 'Creator',
      image_key: creator.image_key,
    });
    return toCharacter(row);
  });
}

/** POST /hooks/select-character/{id}: sets the selection to `selected`, or toggles it when absent. */
export async function selectCharacter(
  ctx: AppContext,
  userId: number,
  characterId: number,
  selected: boolean | undefined,
): Promise<GeneratedCharacter> {
  const c = await repo.findOwnedCharacter(ctx.db.kysely, userId, characterId);
  if (!c) throw characterNotFound();
  const next = selected ?? c.selected !== 1;
  await repo.updateCharacters(ctx.db.kysely, [c.id], { selected: next ? 1 : 0 });
  return toCharacter({ ...c, selected: next ? 1 : 0 });
}

// Previews --------------------------------------------------------------------------------------------------

/** JSON form: automatic placement (the product in the hand area) for each of the given characters. */
export async function generatePreviewsAuto(
  ctx: AppContext,
  userId: number,
  input: { hook_pack_id: number; character_ids: number[] },
): Promise<PreviewCharacter[]> {
  const ids = [...new Set(input.character_ids)];
  return queuePreviews(ctx, userId, input.hook_pack_id, async (trx, pack) => {
    const chars = await repo.charactersByIds(trx, pack.id, ids);
    if (chars.length !== ids.length) throw characterNotFound();
    // The Previews step makes each chosen character's preview once. Asked again (a second tab, its own key) while
    // it renders or once it is made, it would be charged twice for one step: 409. Regenerate is the way to a new
    // one; a failed preview (refunded) may be made again.
    for (const c of chars) {
      const existing = await repo.findPreviewOfCharacter(trx, pack.id, c.id);
      if (existing && (existing.image_key || (await repo.jobIsActive(trx, existing.job_id)))) {
        throw conflict(MESSAGES.server.previewInProgress);
      }
    }
    return chars.map((c) => ({ character: c, placement: autoPlacement(c.seed), maskKey: null }));
  });
}

/**
 * Multipart form: the editor's placement (and its mask.png) for one character. Ownership is checked before
 * the mask is stored; a mask stored for a request that then fails is removed again.
 */
export async function generatePreviewFromEditor(
  ctx: AppContext,
  userId: number,
  fields: Record<string, string>,
  mask: UploadedFile | null,
): Promise<PreviewCharacter[]> {
  const packId = parseId(fields.hook_pack_id, 'hook_pack_id');
  const characterId = parseId(fields.generated_character_id, 'generated_character_id');
  const pack = await getOwnedPack(ctx, userId, packId);
  const character = (await repo.charactersByIds(ctx.db.kysely, pack.id, [characterId]))[0];
  if (!character) throw characterNotFound();
  const auto = autoPlacement(character.seed);
  // The same ranges as the merge (MaskPlacement): out of range is refused, not clamped into something else.
  const given = MaskPlacement.safeParse({
    position_x: parseNumber(fields.position_x, 'position_x') ?? auto.position_x,
    position_y: parseNumber(fields.position_y, 'position_y') ?? auto.position_y,
    scale: parseNumber(fields.scale, 'scale') ?? auto.scale,
    rotation: parseNumber(fields.rotation, 'rotation') ?? auto.rotation,
  });
  if (!given.success) throw unprocessable(given.error.issues[0]?.message ?? 'Invalid placement');
  const placement = clampPlacement(given.data);
  const maskKey =
    mask && mask.buffer.length > 0
      ? (await storeUploadedImage(ctx, { userId, area: 'masks', buffer: mask.buffer })).key
      : null;
  try {
    return await queuePreviews(ctx, userId, packId, async (trx) => {
      // The same position saved again (a second tab) while that preview still renders would pay for it twice.
      // Another position is a new order, even while the first renders.
      const existing = await repo.findPreviewOfCharacter(trx, packId, character.id);
      if (existing && samePlacement(existing, placement) && (await repo.jobIsActive(trx, existing.job_id))) {
        throw conflict(MESSAGES.server.previewInProgress);
      }
      return [{ character, placement, maskKey }];
    });
  } catch (err) {
    if (maskKey) await ctx.files.delete(maskKey).catch(() => undefined);
    throw err;
  }
}

async function queuePreviews(
  ctx: AppContext,
  userId: number,
  packId: number,
  plan: (
    trx: Transaction<Database>,
    pack: HookPackRow,
  ) => Promise<Array<{ character: GeneratedCharacterRow; placement: Placement; maskKey: string | null }>>,
): Promise<PreviewCharacter[]> {
  const { previews } = await submitJobs(ctx, userId, async (trx) => {
    const pack = await repo.findOwned(trx, userId, packId);
    if (!pack) throw packNotFound();
    if (!pack.product_key) throw unprocessable(MESSAGES.hookPacks.productUrlNotFound);
    assertCutoutUsable(pack);
    await repo.lockForQueueing(trx, ctx.db.dialect, pack.id);
    const items = await plan(trx, pack);
    for (const it of items) {
      if (it.character.status === 'failed') throw unprocessable(MESSAGES.hookPacks.characterNotFound);
    }
    const rows: PreviewCharacterRow[] = [];
    for (const it of items) {
      rows.push(
        await repo.upsertPreview(trx, {
          hook_pack_id: pack.id,
          generated_character_id: it.character.id,
          ...it.placement,
          mask_key: it.maskKey,
        }),
      );
    }
    const jobId = await createJob(trx, generatePreviewJob, {
      userId,
      payload: { hookPackId: pack.id, previewIds: rows.map((r) => r.id) },
      projectName: packName(pack),
      hookPackId: pack.id,
      price: 'previewImage',
      units: rows.length,
      insufficientMessage: INSUFFICIENT_CREDITS.previews,
    });
    await repo.updatePreviews(
      trx,
      rows.map((r) => r.id),
      { job_id: jobId },
    );
    return { jobIds: [jobId], previews: rows.map((r) => ({ ...r, job_id: jobId })) };
  });
  return previews.map(toPreview);
}

/** PUT /hooks/preview/{id}: approving sets status accepted, unapproving rejected (and status alone sets both). */
export async function updatePreview(
  ctx: AppContext,
  userId: number,
  previewId: number,
  body: { approved?: boolean | undefined; status?: 'accepted' | 'rejected' | undefined },
): Promise<PreviewCharacter> {
  const p = await repo.findOwnedPreview(ctx.db.kysely, userId, previewId);
  if (!p) throw previewNotFound();
  const approved = body.approved ?? (body.status !== undefined ? body.status === 'accepted' : p.approved === 1);
  if (approved && !p.image_key) throw unprocessable(MESSAGES.hookPacks.previewNotFound);
  const patch = { approved: approved ? 1 : 0, status: approved ? ('accepted' as const) : ('rejected' as const) };
  await repo.updatePreviews(ctx.db.kysely, [p.id], patch);
  return toPreview({ ...p, ...patch });
}

/**
 * POST /hooks/preview/{id}/regenerate?reason=product|person. 'product' re-places the product (a new placement
 * in the hand area); 'person' gives the character a new seed (a new person from the same description), then
 * the preview is composited again. The preview keeps its id and becomes unapproved.
 */
export async function regeneratePreview(
  ctx: AppContext,
  userId: number,
  previewId: number,
  reason: 'product' | 'person',
): Promise<PreviewCharacter> {
  const { preview } = await submitJobs(ctx, userId, async (trx) => {
    const p = await repo.findOwnedPreview(trx, userId, previewId);
    if (!p) throw previewNotFound();
    await repo.lockForQueueing(trx, ctx.db.dialect, p.hook_pack_id);
    // Regenerating a preview that has its picture is a new order (priced on its button); the same regenerate again
    // while the first still renders (a second tab, its own key) would pay twice for one new picture: 409. Only a
    // preview still waiting for its picture counts as rendering: its job stores the picture a moment before it is
    // marked done, and may go on with the pack's other previews, while the user already sees it (and Redo).
    const current = await repo.findPreview(trx, p.id);
    if (current && !current.image_key && (await repo.jobIsActive(trx, current.job_id))) {
      throw conflict(MESSAGES.server.previewInProgress);
    }
    const pack = await repo.findById(trx, p.hook_pack_id);
    const character = await repo.findCharacter(trx, p.generated_character_id);
    if (!pack || !character) throw new HttpError(422, MESSAGES.hookPacks.cannotRegenerate);
    assertCutoutUsable(pack);
    // A creator is their photo: there is no other person of them to make (decision 207).
    if (reason === 'person' && character.avatar_id !== null) throw unprocessable(MESSAGES.hookPacks.creatorPhotoKept);
    let placement: Placement = {
      position_x: p.position_x ?? 0,
      position_y: p.position_y ?? 0,
      scale: p.scale ?? 0,
      rotation: p.rotation ?? 0,
    };
    const rerender: number[] = [];
    if (reason === 'product') {
      placement = autoPlacement(character.seed, 1 + (Date.now() % 997));
    } else {
      const seed = `${character.prompt.trim().replace(/\s+/g, ' ').toLowerCase()}#${randomUUID().slice(0, 8)}`;
      await repo.updateCharacters(trx, [character.id], { seed, status: 'pending' });
      rerender.push(character.id);
      if (p.position_x === null) placement = autoPlacement(seed);
    }
    const row = await repo.upsertPreview(trx, {
      hook_pack_id: pack.id,
      generated_character_id: character.id,
      ...placement,
      mask_key: reason === 'product' ? null : p.mask_key,
    });
    const jobId = await createJob(trx, generatePreviewJob, {
      userId,
      payload: { hookPackId: pack.id, previewIds: [row.id], rerenderCharacterIds: rerender },
      projectName: packName(pack),
      hookPackId: pack.id,
      price: 'previewImage',
      units: 1,
      insufficientMessage: INSUFFICIENT_CREDITS.previews,
    });
    await repo.updatePreviews(trx, [row.id], { job_id: jobId });
    return { jobIds: [jobId], preview: { ...row, job_id: jobId } };
  });
  return toPreview(preview);
}

// Videos ----------------------------------------------------------------------------------------------------

/**
 * The pack's LIMITS.videosPerHookPack hook lines, each from its own angle of the hook-angle library (contracts
 * `HOOK_ANGLES`): the user's hook as typed first, then rewrites filled from the product analysis (name and
 * category). With OPENAI_TEXT_MODEL set, a model writes angle-labelled lines first (checked against the library,
 * topped up by the local angles it did not use, and replaced by them if it fails). `hook` overrides the saved one.
 */
export async function suggestHookLines(
  ctx: AppContext,
  userId: number,
  packId: number,
  hook?: string,
): Promise<HookLinesResponse> {
  const pack = await getOwnedPack(ctx, userId, packId);
  const text = (hook ?? pack.message ?? '').trim();
  if (!text) return { lines: [], angles: [], source: 'rules' };
  const input = {
    hook: text,
    productDetails: pack.product_details,
    category: pack.detected_category,
    language: pack.language,
  };
  const rules = writeHookLines(input, HOOK_ANGLES.length);
  const answer = (lines: HookLine[], source: HookLinesResponse['source']): HookLinesResponse => {
    const picked = mergeHookLines(rules, lines, LIMITS.videosPerHookPack);
    return { lines: picked.map((l) => l.text), angles: picked.map((l) => l.angle), source };
  };
  try {
    const written = await ctx.media.writeHookLines({ ...input, count: LIMITS.videosPerHookPack });
    return written ? answer(written, 'model') : answer([], 'rules');
  } catch {
    return answer([], 'rules');
  }
}

/**
 * POST /jobs/hook-pack/{id}/queue-videos. Default: LIMITS.videosPerHookPack variants cycling over the approved
 * previews' characters, the user's hook first and rule-based rewrites after. The variants, their 12 jobs and the
 * 12 holds are written in one transaction: all or nothing (402 when the balance does not cover them all).
 */
export async function queueVideos(
  ctx: AppContext,
  userId: number,
  packId: number,
  body: {
    variants?: Array<{ index: number; generated_character_id: number; hook_text: string }> | undefined;
    matrix?: HookMatrix | undefined;
  },
): Promise<{ hook_pack_id: number; total_jobs: number }> {
  if (body.matrix && body.variants && body.variants.length > 0) throw unprocessable(MATRIX_MESSAGES.bothForms);
  // Written before the transaction: a model call must never hold a database transaction open.
  const suggested =
    body.matrix || (body.variants && body.variants.length > 0) ? null : await suggestHookLines(ctx, userId, packId);
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const pack = await repo.findOwned(trx, userId, packId);
    if (!pack) throw packNotFound();
    assertCutoutUsable(pack);
    const existing = await repo.variantsWithJobs(trx, packId);
    if (existing.some((v) => v.job && (v.job.status === 'queued' || v.job.status === 'in_progress'))) {
      throw conflict('Videos are already being generated for this hook pack.');
    }
    const approved = (await repo.approvedPreviews(trx, packId)).filter((p) => p.image_key);
    if (approved.length === 0) throw unprocessable(VALIDATION.noApprovedPreviews);
    const approvedCharacters = [...new Set(approved.map((p) => p.generated_character_id))];

    let variants: PlannedVariant[];
    if (body.matrix) {
      variants = planMatrix(body.matrix, approvedCharacters);
    } else if (body.variants && body.variants.length > 0) {
      const indexes = new Set(body.variants.map((v) => v.index));
      if (indexes.size !== body.variants.length) throw unprocessable('Each variant needs its own index');
      if (body.variants.some((v) => !approvedCharacters.includes(v.generated_character_id))) {
        throw unprocessable(VALIDATION.noApprovedCharacters);
      }
      variants = body.variants.map((v) => ({
        variant_index: v.index,
        generated_character_id: v.generated_character_id,
        hook_text: v.hook_text.trim(),
        variant_id: cellIdOfPair(
          { variant_index: v.index, generated_character_id: v.generated_character_id },
          approvedCharacters,
        ),
        cta_text: null,
      }));
    } else {
      const lines = suggested?.lines ?? [];
      if (lines.length === 0) throw unprocessable(VALIDATION.hookRequired);
      variants = lines.map((hook_text, i) => {
        const pair = {
          variant_index: i + 1,
          generated_character_id: approvedCharacters[i % approvedCharacters.length] as number,
        };
        return { ...pair, hook_text, variant_id: cellIdOfPair(pair, approvedCharacters), cta_text: null };
      });
    }

    // Realistic packs hold a hook video's Realistic price per video (every hook is priced at one length).
    const quality = VideoQuality.catch('draft').parse(pack.render_quality);
    if (quality === 'realistic') {
      assertRealisticAvailable(ctx, 'hookPacks');
      await assertInventedCharacters(
        trx,
        packId,
        variants.map((v) => v.generated_character_id),
      );
    }
    const credits =
      quality === 'realistic'
        ? realisticVideoCost(ctx.config.realisticCreditsPerSecond, REALISTIC_HOOK_SECONDS)
        : PRICES.video;
    await assertCoversRequest(
      trx,
      ctx.db.dialect,
      userId,
      toHundredths(credits) * variants.length,
      INSUFFICIENT_CREDITS.videos,
    );
    const rows = await repo.replaceVariants(trx, packId, variants);
    // An own creator's videos go by their name (cards, files, manifest); drawn characters by their number.
    const creatorNames = new Map(
      (await repo.charactersOf(trx, packId)).flatMap((c) => (c.avatar_id !== null ? [[c.id, c.prompt] as const] : [])),
    );
    const batchId = newBatchId();
    const ids: number[] = [];
    for (const v of rows) {
      const jobId = await createJob(trx, renderHookVideoJob, {
        userId,
        payload: { hookPackId: packId, variantIndex: v.variant_index, quality, aspects: extraAspectsOf(pack.aspects) },
        projectName: `${packName(pack)} · Video #${v.variant_index}`,
        hookPackId: packId,
        variantIndex: v.variant_index,
        labels: {
          actorName:
            creatorNames.get(v.generated_character_id) ?? characterLabel(approvedCharacters, v.generated_character_id),
          variantLabel: `Video #${v.variant_index}`,
          hookText: v.hook_text,
          variantId: v.variant_id,
        },
        price: 'video',
        credits,
        insufficientMessage: INSUFFICIENT_CREDITS.videos,
        batchId,
      });
      await repo.setVariantJob(trx, v.id, jobId);
      ids.push(jobId);
    }
    await repo.update(trx, packId, { status: 'generating_videos' });
    return { jobIds: ids };
  });
  return { hook_pack_id: packId, total_jobs: jobIds.length };
}

/** GET /jobs/hook-pack/{id}/jobs: the pack's video jobs in variant order. */
export async function listPackJobs(ctx: AppContext, userId: number, packId: number): Promise<Job[]> {
  const pack = await getOwnedPack(ctx, userId, packId);
  await reconcileVideosReady(ctx, pack);
  const variants = await repo.variantsWithJobs(ctx.db.kysely, packId);
  return withEstimates(
    ctx,
    variants.flatMap((v) => (v.job ? [v.job] : [])),
  );
}

/**
 * generating_videos → videos_ready once every variant's job has completed. Called by the video handler after
 * each render and on reads, so two renders finishing at the same moment cannot both miss the last step.
 */
export async function reconcileVideosReady(ctx: Pick<AppContext, 'db'>, pack: HookPackRow): Promise<boolean> {
  if (pack.status !== 'generating_videos') return false;
  const variants = await repo.variantsWithJobs(ctx.db.kysely, pack.id);
  if (variants.length === 0 || !variants.every((v) => v.job?.status === 'completed')) return false;
  return repo.transition(ctx.db.kysely, pack.id, 'generating_videos', 'videos_ready');
}

export interface DownloadEntry {
  name: string;
  key: string;
}

/** What GET /hooks/{id}/download puts in the zip: each finished video with its captions, and manifest.csv. */
export async function downloadPlan(
  ctx: AppContext,
  userId: number,
  packId: number,
): Promise<{ fileName: string; entries: DownloadEntry[]; manifest: string }> {
  const pack = await getOwnedPack(ctx, userId, packId);
  const variants = (await repo.variantsWithJobs(ctx.db.kysely, packId)).filter(
    (v) => v.job?.status === 'completed' && v.job.video_key,
  );
  if (variants.length === 0) throw conflict('No videos are ready to download yet.');
  const characters = new Map((await repo.charactersOf(ctx.db.kysely, packId)).map((c) => [c.id, c] as const));
  // Characters are numbered as the wizard numbers them: by their place among the approved previews.
  const approvedCharacters = [
    ...new Set((await repo.approvedPreviews(ctx.db.kysely, packId)).map((p) => p.generated_character_id)),
  ];
  const entries: DownloadEntry[] = [];
  // One line per video, keyed by its cell id so ad-platform results join back (docs/product.md#hook-matrix).
  const lines = [
    [
      'variant_id',
      'hook',
      'actor',
      'cta',
      'aspect',
      'duration',
      'file',
      'video',
      'language',
      'accent',
      'actor_prompt',
      'real_photo',
      'ai_label',
    ],
  ];
  // A pack exported in several frame shapes groups its files by shape ('9x16/', '4x5/', '1x1/'); a pack of 9:16
  // videos only keeps every file at the top, as it always has.
  const shapesOf = (job: NonNullable<(typeof variants)[number]['job']>) => [
    { aspect: DEFAULT_ASPECT, key: job.video_key as string },
    ...storedAspectsOf(job.result).map((a) => ({ aspect: a.aspect, key: a.video_key })),
  ];
  const grouped = variants.some((v) => shapesOf(v.job!).length > 1);
  for (const v of variants) {
    const job = v.job as NonNullable<typeof v.job>;
    const videoKey = job.video_key as string;
    const actorName = job.actor_name ?? characterLabel(approvedCharacters, v.generated_character_id);
    const cellId = v.variant_id ?? job.variant_id ?? '';
    const masterName = videoFileName({
      base: packName(pack),
      variantIndex: v.variant_index,
      variantId: cellId || null,
      actor: actorName,
    });
    const duration = durationOfResult(job.result);
    for (const shape of shapesOf(job)) {
      const folder = grouped ? `${aspectTag(shape.aspect)}/` : '';
      const file = `${folder}${aspectFileName(masterName, shape.aspect)}`;
      const base = file.replace(/\.mp4$/, '');
      entries.push({ name: file, key: shape.key });
      // The captions are the same words in every shape: each folder gets its own copy beside its videos.
      entries.push({ name: `${base}.srt`, key: videoKey.replace(/\.mp4$/, '.srt') });
      entries.push({ name: `${base}.vtt`, key: videoKey.replace(/\.mp4$/, '.vtt') });
      lines.push([
        cellId,
        v.hook_text,
        actorName,
        v.cta_text ?? pack.cta_text ?? '',
        shape.aspect,
        duration === null ? '' : duration.toFixed(2),
        file,
        String(v.variant_index),
        pack.language,
        pack.accent,
        characters.get(v.generated_character_id)?.prompt ?? '',
        ...aiColumns(job.result),
      ]);
    }
  }
  const manifest = lines.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
  const slug =
    (pack.name ?? 'hook-pack')
      .replace(/[^a-zA-Z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'hook-pack';
  return { fileName: `${slug}-${pack.id}.zip`, entries, manifest };
}

/** The video's length in seconds as its render measured it (the job's result), or null for older jobs. */
function durationOfResult(result: string | null): number | null {
  if (!result) return null;
  try {
    const parsed = QualityReport.pick({ duration_sec: true }).safeParse(JSON.parse(result));
    return parsed.success && Number.isFinite(parsed.data.duration_sec) ? parsed.data.duration_sec : null;
  } catch {
    return null;
  }
}

/** RFC 4180 quoting, and a leading quote for cells a spreadsheet would run as a formula. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

// Helpers ---------------------------------------------------------------------------------------------------

const packName = (pack: Pick<HookPackRow, 'name'>) => pack.name || UNTITLED_HOOK_PACK;

/**
 * 'Character 2': a pack's characters are numbered by their place among the approved previews' characters, the
 * order the wizard lists them in and the server cycles them in, so cards, zip and manifest agree.
 */
function characterLabel(approvedCharacters: readonly number[], characterId: number): string {
  const at = approvedCharacters.indexOf(characterId);
  return at >= 0 ? `Character ${at + 1}` : `Character ${characterId}`;
}

function samePlacement(p: PreviewCharacterRow, placement: Placement): boolean {
  return (
    p.position_x === placement.position_x &&
    p.position_y === placement.position_y &&
    p.scale === placement.scale &&
    p.rotation === placement.rotation
  );
}

function parseId(value: string | undefined, field: string): number {
  const n = Number(value);
  if (!value || !Number.isSafeInteger(n) || n <= 0) throw unprocessable(`${field} must be a positive integer`);
  return n;
}

function parseNumber(value: string | undefined, field: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw unprocessable(`${field} must be a number`);
  return n;
}

function packFields(r: HookPackRow) {
  return {
    id: r.id,
    name: r.name,
    language: r.language as Language,
    accent: r.accent as Accent,
    message: r.message,
    product_details: r.product_details,
    product_url: r.product_key,
    detected_shape: r.detected_shape,
    detected_category: r.detected_category,
    cutout_check: packCutoutCheck(r),
    status: r.status,
    created_at: r.created_at,
    ...videoStyleOf(r),
    ...brandStyleOf(r),
  };
}

const toType = (t: { id: number; description: string; order_index: number }): CharacterType => ({
  id: t.id,
  description: t.description,
  order_index: t.order_index,
});

/** Pending characters have an empty url until their portrait is rendered (the client polls every second). */
function toCharacter(c: GeneratedCharacterRow): GeneratedCharacter {
  return {
    id: c.id,
    url: c.image_key ?? '',
    prompt: c.prompt,
    selected: c.selected === 1,
    character_type_id: c.character_type_id,
    kind: c.avatar_id === null ? 'illustrated' : 'photo',
    creator_id: c.avatar_id,
  };
}

function toPreview(p: PreviewCharacterRow): PreviewCharacter {
  return {
    id: p.id,
    generated_character_id: p.generated_character_id,
    url: p.image_key,
    errors: p.errors,
    approved: p.approved === 1,
    status: p.status ?? (p.approved === 1 ? 'accepted' : 'pending'),
    created_at: p.created_at,
    position_x: p.position_x,
    position_y: p.position_y,
    scale: p.scale,
    rotation: p.rotation,
  };
}
