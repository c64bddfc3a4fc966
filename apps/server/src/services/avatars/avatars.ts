import { FRAME, VALIDATION, sizeClassOf, type Avatar, type SavedBounds, type SizeClass } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { avatarsRepository, type AvatarRow, type AvatarWithMerge } from '../../db/repositories/avatars.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { forbidden, notFound, unprocessable } from '../../errors.ts';
import { cleanDisplayName, storeUploadedImage, type UploadedFile } from '../../uploads/index.ts';
import { getOwnedProject } from '../projects/index.ts';
import { isAdminRow } from '../account/index.ts';

export const AVATAR_UPLOAD_FIELD = 'files';
/** Multipart field the uploader sets to "true" to confirm they have the pictured people's consent (decision 121). */
export const AVATAR_CONSENT_FIELD = 'consent';

/** Admins are the verified e-mail addresses in ADMIN_EMAILS (case-insensitive); they alone may change the library. */
export async function isAdmin(ctx: Pick<AppContext, 'db' | 'config'>, userId: number): Promise<boolean> {
  if (ctx.config.adminEmails.size === 0) return false;
  const user = await usersRepository.findById(ctx.db.kysely, userId);
  return !!user && isAdminRow(ctx, user);
}

export async function assertAdmin(ctx: Pick<AppContext, 'db' | 'config'>, userId: number): Promise<void> {
  if (!(await isAdmin(ctx, userId))) throw forbidden();
}

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
  return rows
    .filter((r) => !sizes || sizes.has(sizeClassOf(r.width)))
    .sort(order)
    .map((r) => toAvatar(r, query.project_id !== undefined));
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

export async function updateAvatarBounds(ctx: AppContext, userId: number, id: number, b: SavedBounds): Promise<Avatar> {
  await assertAdmin(ctx, userId);
  checkBounds(b);
  const row = await avatarsRepository.updateBounds(ctx.db.kysely, id, {
    x: b.x,
    y: b.y,
    width: b.width,
    height: b.height,
    rotation: normaliseDegrees(b.rotation),
    corners: JSON.stringify([b.x1, b.y1, b.x2, b.y2, b.x3, b.y3, b.x4, b.y4]),
  });
  if (!row) throw notFound();
  return toAvatar(row);
}

/**
 * POST /avatars/upload: every file in field `files` is sanitised and added to the shared library. All or
 * nothing: if one file is refused, the ones already stored are removed and the error explains the refusal.
 * `walk` feeds the files one by one (the route passes the multipart reader).
 */
export async function uploadAvatars(
  ctx: AppContext,
  userId: number,
  walk: (onFile: (file: UploadedFile) => Promise<void>) => Promise<unknown>,
): Promise<Avatar[]> {
  await assertAdmin(ctx, userId);
  const created: AvatarRow[] = [];
  const consentAt = new Date().toISOString();
  try {
    const fields = await walk(async (file) => {
      if (file.fieldname !== AVATAR_UPLOAD_FIELD)
        throw unprocessable(`Unexpected file field ${file.fieldname.slice(0, 40)}`);
      const stored = await storeUploadedImage(ctx, { userId, area: 'avatars', buffer: file.buffer });
      try {
        created.push(
          await avatarsRepository.insert(ctx.db.kysely, {
            owner_user_id: null,
            created_by_user_id: userId,
            image_key: stored.key,
            prompt: null,
            name: cleanDisplayName(file.filename),
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
            consent_confirmed_at: consentAt,
            consent_by_user_id: userId,
          }),
        );
      } catch (err) {
        await ctx.files.delete(stored.key).catch(() => undefined);
        throw err;
      }
    });
    if (created.length === 0) throw unprocessable(VALIDATION.imageRequired);
    // The field may come after the files; without it, the rows and files made so far are removed below.
    if (!hasConsent(fields)) throw unprocessable(VALIDATION.avatarConsentRequired);
  } catch (err) {
    for (const row of created) {
      await avatarsRepository.remove(ctx.db.kysely, row.id).catch(() => undefined);
      await ctx.files.delete(row.image_key).catch(() => undefined);
    }
    throw err;
  }
  // Newest first, as the list shows them.
  return created.reverse().map((r) => toAvatar(r));
}

function hasConsent(fields: unknown): boolean {
  if (!fields || typeof fields !== 'object') return false;
  const v = (fields as Record<string, unknown>)[AVATAR_CONSENT_FIELD];
  return typeof v === 'string' && ['true', 'on', '1', 'yes'].includes(v.trim().toLowerCase());
}

export async function deleteAvatar(ctx: AppContext, userId: number, id: number): Promise<void> {
  await assertAdmin(ctx, userId);
  const keys = await avatarsRepository.remove(ctx.db.kysely, id);
  if (!keys) throw notFound();
  await Promise.all(keys.map((k) => ctx.files.delete(k).catch(() => undefined)));
}

/** Degrees folded into (-180, 180]. */
export function normaliseDegrees(deg: number): number {
  const d = ((deg % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
}
