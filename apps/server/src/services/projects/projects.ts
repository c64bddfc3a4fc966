import {
  CreateProjectFields,
  MESSAGES,
  VALIDATION,
  type Accent,
  type Language,
  type Project,
  type ProjectCharacter,
  type UpdateProjectRequest,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { projectsRepository, type ProjectCharacterJoined, type ProjectRow } from '../../db/repositories/projects.ts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { HttpError, notFound, unprocessable } from '../../errors.ts';
import { storeUploadedImage, type UploadedFile } from '../../uploads/index.ts';
import { brandStyleOf, newStyleDefaults } from '../video/index.ts';
import { videoStyleOf } from '../video/index.ts';
import { voiceAfterChange } from '../voices/index.ts';
import { cutoutCheckOf, looksForCards, projectCutoutKey } from '../actors/index.ts';
import { VOICE_OVER_MESSAGES, voiceOverOf } from './voice.ts';

export type { ProjectRow } from '../../db/repositories/projects.ts';

const projectNotFound = () => notFound(MESSAGES.projects.notFound);

/**
 * The project row if it belongs to the user, else 404 'Project not found' (another user's project looks
 * exactly like a missing one). For other areas (jobs, merge, hook packs) that act on a project.
 */
export async function getOwnedProject(ctx: Pick<AppContext, 'db'>, userId: number, id: number): Promise<ProjectRow> {
  const row = await projectsRepository.findOwned(ctx.db.kysely, userId, id);
  if (!row) throw projectNotFound();
  return row;
}

export async function listProjects(ctx: AppContext, userId: number): Promise<Project[]> {
  const rows = await projectsRepository.listByUser(ctx.db.kysely, userId);
  const chars = await projectsRepository.charactersOf(
    ctx.db.kysely,
    rows.map((r) => r.id),
  );
  const photos = await photorealStills(ctx, userId);
  return rows.map((r) =>
    toProject(
      r,
      chars.filter((c) => c.project_id === r.id),
      photos,
    ),
  );
}

/** The catalogue actors this user made photoreal, by avatar id: their still's key (decision 216). */
async function photorealStills(ctx: Pick<AppContext, 'db'>, userId: number): Promise<Map<number, string>> {
  const looks = await looksForCards(ctx, userId);
  return new Map([...looks].flatMap(([id, l]) => (l.photoKey ? [[id, l.photoKey] as const] : [])));
}

export async function getProject(ctx: AppContext, userId: number, id: number): Promise<Project> {
  const row = await getOwnedProject(ctx, userId, id);
  return toProject(
    row,
    await projectsRepository.charactersOf(ctx.db.kysely, [row.id]),
    await photorealStills(ctx, userId),
  );
}

/**
 * POST /projects/: the name is checked first (cheap), then the optional image is sanitised and stored, then
 * the row is written. If the row cannot be written the stored image is removed again.
 */
export async function createProject(
  ctx: AppContext,
  userId: number,
  input: { fields: Record<string, string>; file: UploadedFile | null },
): Promise<{ id: number }> {
  const parsed = CreateProjectFields.safeParse({ name: input.fields.name ?? '' });
  if (!parsed.success) throw unprocessable(parsed.error.issues[0]?.message ?? VALIDATION.nameMin);
  let fileKey: string | null = null;
  // A browser sends an empty, nameless part for an empty optional file input: that means "no file".
  const file = input.file && (input.file.buffer.length > 0 || input.file.filename) ? input.file : null;
  if (file) {
    fileKey = (await storeUploadedImage(ctx, { userId, area: 'projects', buffer: file.buffer })).key;
  }
  try {
    const style = await newStyleDefaults(ctx, userId);
    const row = await projectsRepository.insert(ctx.db.kysely, { userId, name: parsed.data.name, fileKey, style });
    return { id: row.id };
  } catch (err) {
    if (fileKey) await ctx.files.delete(fileKey).catch(() => undefined);
    throw err;
  }
}

export async function updateProject(
  ctx: AppContext,
  userId: number,
  id: number,
  patch: UpdateProjectRequest,
): Promise<Project> {
  const current = await getOwnedProject(ctx, userId, id);
  // Choosing one's own recording needs one: a render must never find the voice missing.
  if (patch.voice_source === 'own' && !current.voice_over_key) throw unprocessable(VOICE_OVER_MESSAGES.noRecording);
  const voiceId = await voiceAfterChange(ctx, {
    picked: patch.voice_id,
    stored: current.voice_id,
    language: patch.language ?? (current.language as Language),
  });
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
  if (Object.keys(changes).length > 0) {
    const updated = await projectsRepository.update(ctx.db.kysely, userId, id, changes);
    if (!updated) throw projectNotFound();
  }
  return getProject(ctx, userId, id);
}

/** Deletes the project and every file it owns (product image, merge results). */
export async function deleteProject(ctx: AppContext, userId: number, id: number): Promise<void> {
  // Its jobs stay, with their videos, and show the project as deleted (Job.project_deleted).
  const keys = await ctx.db.kysely.transaction().execute(async (trx) => {
    const removed = await projectsRepository.delete(trx, userId, id);
    if (removed) await jobsRepository.detachProject(trx, id);
    return removed;
  });
  if (!keys) throw projectNotFound();
  await Promise.all(keys.map((k) => ctx.files.delete(k).catch(() => undefined)));
}

/**
 * POST /projects/{id}/selected-characters: the ids are avatar ids the user can see (catalogue, shared library
 * or their own). The selection replaces the previous one; merge results of deselected actors are kept.
 */
export async function setSelectedCharacters(
  ctx: AppContext,
  userId: number,
  id: number,
  characterIds: number[],
): Promise<Project> {
  await getOwnedProject(ctx, userId, id);
  const ids = [...new Set(characterIds)];
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const visible = await avatarsRepository.visibleIds(trx, userId, ids);
    if (ids.some((a) => !visible.has(a))) throw new HttpError(404, MESSAGES.hookPacks.characterNotFound);
    await projectsRepository.setSelectedCharacters(trx, id, ids);
  });
  return getProject(ctx, userId, id);
}

/** The check of the cut-out of the project's current product image, when one was made (decision 214). */
export function projectCutoutCheck(row: ProjectRow): Project['cutout_check'] {
  if (!row.file_key || row.cutout_file_key !== row.file_key) return null;
  return cutoutCheckOf({
    cutoutUrl: projectCutoutKey(row.user_id, row.id, row.file_key),
    verdict: row.cutout_verdict,
    notes: row.cutout_notes,
    acceptedAt: row.cutout_accepted_at,
  });
}

function toProject(row: ProjectRow, chars: ProjectCharacterJoined[], photos: Map<number, string>): Project {
  return {
    id: row.id,
    name: row.name,
    file_path: row.file_key,
    script: row.script,
    language: row.language as Language,
    accent: row.accent as Accent,
    created_at: row.created_at,
    updated_at: row.updated_at,
    characters: chars.map((c) => toProjectCharacter(c, photos.get(c.avatar_id) ?? null)),
    cutout_check: projectCutoutCheck(row),
    ...voiceOverOf(row),
    ...videoStyleOf(row),
    ...brandStyleOf(row),
  };
}

/** `photo`: the user's photoreal still of this catalogue actor, which their Draft videos animate (decision 216). */
function toProjectCharacter(c: ProjectCharacterJoined, photo: string | null): ProjectCharacter {
  const merged = c.merge_status === 'merged' && c.merged_key ? c.merged_key : null;
  const photoreal = c.catalogue_actor_id !== null && photo !== null;
  return {
    id: c.avatar_id,
    prompt: c.prompt,
    url: photoreal ? photo : c.image_key,
    display_url: merged ?? c.image_key,
    name: c.name ?? `Avatar ${c.avatar_id}`,
    selected: c.selected === 1,
    x: c.x ?? c.avatar_x,
    y: c.y ?? c.avatar_y,
    width: c.width ?? c.avatar_width,
    height: c.height ?? c.avatar_height,
    rotation: c.x !== null ? c.rotation : c.avatar_rotation,
    is_merged: merged !== null,
    merged_character: merged ? { url: merged } : null,
    catalogue: c.catalogue_actor_id !== null,
    photoreal,
  };
}
