import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FRAME,
  type PhotoFace,
  VALIDATION,
  sizeClassOf,
  type Avatar,
  type SavedBounds,
  type SizeClass,
} from '@hookreel/contracts';
import { talkingPreviewKey } from './jobs.ts';
import { storedTalkingPreview } from './talking-preview.ts';
import type { AppContext } from '../../context.ts';
import { avatarsRepository, type AvatarRow, type AvatarWithMerge } from '../../db/repositories/avatars.ts';
import { notFound, unprocessable } from '../../errors.ts';
import {
  cleanDisplayName,
  sanitizeImage,
  storeCleanImage,
  type CleanImage,
  type UploadedFile,
} from '../../uploads/index.ts';
import { getOwnedProject } from '../projects/index.ts';
import { auditAdmin, requireAdmin, type Caller } from '../account/index.ts';

export { avatarFace } from '../actors/index.ts';
import { looksForCards } from '../actors/index.ts';

export const AVATAR_UPLOAD_FIELD = 'files';
/** Multipart field the uploader sets to "true" to confirm they have the pictured people's consent (decision 121). */
export const AVATAR_CONSENT_FIELD = 'consent';

/**
 * GET /avatars/: the library the user can see, uploads newest first, then the catalogue actors in order.
 * With a project id (which must be the user's), each avatar carries that project's merge state.
 */
export async function listAvatars(
  ctx: AppContext,
  userId: number,
  query: { project_id?: number | undefined; sizes?: SizeClass[] | undefined; description?: string | undefined },
  signal?: AbortSignal,
): Promise<Avatar[]> {
  if (query.project_id !== undefined) await getOwnedProject(ctx, userId, query.project_id);
  const rows = await avatarsRepository.listVisible(ctx.db.kysely, userId, query.project_id);
  const sizes = query.sizes && query.sizes.length > 0 ? new Set(query.sizes) : null;
  const order = query.description
    ? describedOrder(await ctx.media.rankCatalogueActors({ description: query.description, signal }))
    : libraryOrder;
  const listed = rows.filter((r) => !sizes || sizes.has(sizeClassOf(r.width))).sort(order);
  const looks = await looksForCards(ctx, userId);
  // Each actor carries their talking preview once it is made (decisions 207, 219); a catalogue actor the caller made
  // photoreal shows that still and is a photo actor now (decision 216): the catalogue's drawn preview is not theirs.
  return Promise.all(
    listed.map(async (r) => {
      const look = looks.get(r.id);
      let avatar = toAvatar(r, query.project_id !== undefined);
      if (look) avatar = { ...avatar, mouth_stills: look.mouths };
      if (look?.photoKey && r.catalogue_actor_id !== null) {
        return { ...avatar, url: look.photoKey, kind: 'photo' as const, photoreal: true };
      }
      return { ...avatar, preview_url: await storedTalkingPreview(ctx, r.image_key) };
    }),
  );
}

/**
 * With a character description (decision 142): the catalogue actors first in the engine's ranking (best trait
 * match first), then the uploads, newest first, as nothing is known of what their pictures show.
 */
function describedOrder(rankedIds: readonly string[]): (a: AvatarRow, b: AvatarRow) => number {
  const rank = (r: AvatarRow) => {
    if (r.catalogue_actor_id === null) return Infinity;
    const i = rankedIds.indexOf(r.catalogue_actor_id);
    return i === -1 ? rankedIds.length : i;
  };
  return (a, b) => rank(a) - rank(b) || libraryOrder(a, b);
}

function libraryOrder(a: AvatarRow, b: AvatarRow): number {
  const ca = a.catalogue_actor_id === null ? 0 : 1;
  const cb = b.catalogue_actor_id === null ? 0 : 1;
  if (ca !== cb) return ca - cb;
  if (ca === 1) return Number(a.catalogue_actor_id) - Number(b.catalogue_actor_id);
  return b.created_at.localeCompare(a.created_at) || b.id - a.id;
}

export function toAvatar(r: AvatarRow | AvatarWithMerge, withProject = false): Avatar {
  const m = 'merge_status' in r ? r : { merge_status: null, merged_key: null };
  const merged = m.merge_status === 'merged' ? m.merged_key : null;
  return {
    id: r.id,
    url: r.image_key,
    prompt: r.prompt,
    name: r.name,
    x: r.x,
    y: r.y,
    width: r.width,
    height: r.height,
    rotation: r.rotation ?? 0,
    size: sizeClassOf(r.width),
    merge_status: withProject ? (m.merge_status ?? 'not_merged') : null,
    merged_url: merged,
    catalogue: r.catalogue_actor_id !== null,
    kind: r.catalogue_actor_id !== null ? 'illustrated' : 'photo',
    own: r.owner_user_id !== null,
    preview_url: null,
    photoreal: false,
    mouth_stills: false,
  };
}

/** Corners may lie outside the frame (a box rotated near an edge) but not absurdly far. */
const CORNER_LIMIT = 2 * Math.max(FRAME.width, FRAME.height);

/**
 * Checks the saved-bounds payload is self-consistent: every number finite and near the frame, the box no
 * larger than a few frames, and the rotated corners' edges as long as the box's width and height.
 */
export function checkBounds(b: SavedBounds): void {
  const corners: Array<[number, number]> = [
    [b.x1, b.y1],
    [b.x2, b.y2],
    [b.x3, b.y3],
    [b.x4, b.y4],
  ];
  for (const [x, y] of corners) {
    if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > CORNER_LIMIT || Math.abs(y) > CORNER_LIMIT) {
      throw unprocessable('Bounds corners are out of range');
    }
  }
  if (
    Math.abs(b.x) > CORNER_LIMIT ||
    Math.abs(b.y) > CORNER_LIMIT ||
    b.width > CORNER_LIMIT ||
    b.height > CORNER_LIMIT
  ) {
    throw unprocessable('Bounds are out of range');
  }
  const dist = (p: [number, number], q: [number, number]) => Math.hypot(p[0] - q[0], p[1] - q[1]);
  const close = (measured: number, expected: number) => Math.abs(measured - expected) <= Math.max(3, expected * 0.05);
  const [c1, c2, c3, c4] = corners as [[number, number], [number, number], [number, number], [number, number]];
  if (
    !close(dist(c1, c2), b.width) ||
    !close(dist(c4, c3), b.width) ||
    !close(dist(c2, c3), b.height) ||
    !close(dist(c1, c4), b.height)
  ) {
    throw unprocessable('Bounds corners do not match the width and height');
  }
}

export async function updateAvatarBounds(ctx: AppContext, caller: Caller, id: number, b: SavedBounds): Promise<Avatar> {
  const admin = await requireAdmin(ctx, caller);
  checkBounds(b);
  // Own creators are their owner's alone: the library's admin tools do not reach them (decision 202).
  if ((await avatarsRepository.findLive(ctx.db.kysely, id))?.owner_user_id != null) throw notFound();
  const row = await avatarsRepository.updateBounds(ctx.db.kysely, id, {
    x: b.x,
    y: b.y,
    width: b.width,
    height: b.height,
    rotation: normaliseDegrees(b.rotation),
    corners: JSON.stringify([b.x1, b.y1, b.x2, b.y2, b.x3, b.y3, b.x4, b.y4]),
  });
  if (!row) throw notFound();
  await auditAdmin(ctx, admin, 'avatars.bounds', { target: `avatar:${id}` });
  return toAvatar(row);
}

/**
 * POST /avatars/upload: every file in field `files` is sanitised and added to the shared library. All or
 * nothing: if one file is refused, the ones already stored are removed and the error explains the refusal.
 * `walk` feeds the files one by one (the route passes the multipart reader).
 */
export async function uploadAvatars(
  ctx: AppContext,
  caller: Caller,
  walk: (onFile: (file: UploadedFile) => Promise<void>) => Promise<unknown>,
): Promise<Avatar[]> {
  const admin = await requireAdmin(ctx, caller);
  const userId = admin.userId;
  const created: AvatarRow[] = [];
  const consentAt = new Date().toISOString();
  // The whole request is read (and each picture sanitised) before any face is analysed: a request refused for
  // its size, its file count or a missing consent costs no analysis, and the body is never left half-read.
  const picked: Array<{ clean: CleanImage; name: string | null }> = [];
  const fields = await walk(async (file) => {
    if (file.fieldname !== AVATAR_UPLOAD_FIELD)
      throw unprocessable(`Unexpected file field ${file.fieldname.slice(0, 40)}`);
    picked.push({ clean: await sanitizeImage(file.buffer), name: cleanDisplayName(file.filename) });
  });
  if (picked.length === 0) throw unprocessable(VALIDATION.imageRequired);
  // The field may come after the files.
  if (!hasConsent(fields)) throw unprocessable(VALIDATION.avatarConsentRequired);
  try {
    for (const { clean, name } of picked) {
      const face = await photoFace(ctx, clean, name);
      const stored = await storeCleanImage(ctx, { userId, area: 'avatars', clean });
      try {
        created.push(
          await avatarsRepository.insertUploadedPhoto(ctx.db.kysely, {
            owner_user_id: null,
            created_by_user_id: userId,
            image_key: stored.key,
            name,
            consent_confirmed_at: consentAt,
            consent_by_user_id: userId,
            face_json: JSON.stringify(face),
          }),
        );
      } catch (err) {
        await ctx.files.delete(stored.key).catch(() => undefined);
        throw err;
      }
    }
  } catch (err) {
    // All or nothing: one refused photo removes the ones already stored.
    for (const row of created) {
      await avatarsRepository.remove(ctx.db.kysely, row.id).catch(() => undefined);
      await ctx.files.delete(row.image_key).catch(() => undefined);
    }
    throw err;
  }
  await auditAdmin(ctx, admin, 'avatars.upload', { target: created.map((r) => `avatar:${r.id}`).join(',') });
  // Newest first, as the list shows them.
  return created.reverse().map((r) => toAvatar(r));
}

/**
 * The face of an uploaded photo, found once here and kept with the avatar so a render never detects again
 * (decision 190). A photo that cannot be animated is refused with the reason, which the upload screen shows.
 */
export async function photoFace(ctx: AppContext, clean: CleanImage, name: string | null): Promise<PhotoFace> {
  await mkdir(ctx.config.workDir, { recursive: true });
  const file = path.join(ctx.config.workDir, `avatar-face-${randomUUID()}.${clean.ext}`);
  try {
    await writeFile(file, clean.data);
    const r = await ctx.media.analyzePortrait({ imagePath: file });
    if (!r.ok) throw unprocessable(name ? `${name}: ${r.message}` : r.message);
    return r.face;
  } finally {
    await rm(file, { force: true });
  }
}

function hasConsent(fields: unknown): boolean {
  if (!fields || typeof fields !== 'object') return false;
  const v = (fields as Record<string, unknown>)[AVATAR_CONSENT_FIELD];
  return typeof v === 'string' && ['true', 'on', '1', 'yes'].includes(v.trim().toLowerCase());
}

export async function deleteAvatar(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const admin = await requireAdmin(ctx, caller);
  const row = await avatarsRepository.findLive(ctx.db.kysely, id);
  if (row?.owner_user_id != null) throw notFound();
  const keys = await avatarsRepository.remove(ctx.db.kysely, id);
  if (!keys || !row) throw notFound();
  await auditAdmin(ctx, admin, 'avatars.delete', { target: `avatar:${id}` });
  // A library photo's talking preview goes with it; a catalogue actor's stays (its row stays, marked deleted).
  const preview = row.catalogue_actor_id === null ? [talkingPreviewKey(row.image_key)] : [];
  await Promise.all([...keys, ...preview].map((k) => ctx.files.delete(k).catch(() => undefined)));
}

/** Degrees folded into (-180, 180]. */
export function normaliseDegrees(deg: number): number {
  const d = ((deg % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
}
