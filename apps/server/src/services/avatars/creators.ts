import {
  CREATOR_FIELDS,
  CREATOR_MESSAGES,
  CreatorName,
  creatorConsentText,
  type Creator,
  type RenameCreatorRequest,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { avatarsRepository, type AvatarRow } from '../../db/repositories/avatars.ts';
import { notFound, unprocessable } from '../../errors.ts';
import { sanitizeImage, storeCleanImage, type CleanImage, type UploadedFile } from '../../uploads/index.ts';
import { getCurrentUser } from '../account/index.ts';
import { createJob, submitJobs } from '../jobs/index.ts';
import { photoFace, toAvatar } from './avatars.ts';
import { storedTalkingPreview } from './talking-preview.ts';
import { looksForCards } from '../actors/index.ts';
import { creatorPreviewKey, renderCreatorPreviewJob } from './jobs.ts';

/**
 * Own creators (decision 202): any signed-in user adds private actors from photos of people who agreed to it.
 * The consent is kept with the actor as the avatar library keeps it (decision 121) — when, by whom — plus the
 * words of what the person agreed to. A creator is a private avatar row (`owner_user_id`), so every place that
 * lists or uses avatars through `findVisible`/`visibleIds` offers it to its owner and to nobody else.
 */

async function toCreator(ctx: AppContext, row: AvatarRow, ownerEmail: string | null): Promise<Creator> {
  const name = row.name ?? 'Creator';
  const preview = await storedTalkingPreview(ctx, row.image_key);
  const look = row.owner_user_id === null ? null : (await looksForCards(ctx, row.owner_user_id)).get(row.id);
  return {
    ...toAvatar(row),
    mouth_stills: look?.mouths ?? false,
    name,
    consent: {
      text: row.consent_text ?? creatorConsentText(name),
      confirmed_at: row.consent_confirmed_at ?? row.created_at,
      confirmed_by: row.consent_by_user_id === row.owner_user_id ? ownerEmail : null,
    },
    created_at: row.created_at,
    preview_url: preview,
  };
}

const ownerEmail = async (ctx: AppContext, userId: number) => (await getCurrentUser(ctx, userId)).email;

/** GET /creators: the caller's own creators, newest first. */
export async function listCreators(ctx: AppContext, userId: number): Promise<Creator[]> {
  const email = await ownerEmail(ctx, userId);
  return Promise.all((await avatarsRepository.listOwn(ctx.db.kysely, userId)).map((r) => toCreator(ctx, r, email)));
}

/** One of the caller's creators; anyone else's (or a library avatar) is 404. */
export async function getCreator(ctx: AppContext, userId: number, id: number): Promise<Creator> {
  const row = await avatarsRepository.findOwn(ctx.db.kysely, userId, id);
  if (!row) throw notFound();
  return toCreator(ctx, row, await ownerEmail(ctx, userId));
}

/**
 * POST /creators (multipart: `photo`, `name`, `consent=true`). The photo is checked like every image upload
 * (type by its bytes, size and pixel caps, metadata stripped, re-encoded), then its face like the library's
 * photos: one that cannot be animated is refused with the face check's reason. Nothing is stored before both pass.
 */
export async function addCreator(
  ctx: AppContext,
  userId: number,
  walk: (onFile: (file: UploadedFile) => Promise<void>) => Promise<Record<string, string>>,
): Promise<Creator> {
  let clean: CleanImage | null = null;
  const fields = await walk(async (file) => {
    if (file.fieldname !== CREATOR_FIELDS.photo)
      throw unprocessable(`Unexpected file field ${file.fieldname.slice(0, 40)}`);
    clean = await sanitizeImage(file.buffer);
  });
  const name = CreatorName.safeParse(fields[CREATOR_FIELDS.name] ?? '');
  if (!name.success) throw unprocessable(name.error.issues[0]?.message ?? CREATOR_MESSAGES.nameRequired);
  if (!clean) throw unprocessable(CREATOR_MESSAGES.photoRequired);
  const consent = (fields[CREATOR_FIELDS.consent] ?? '').trim().toLowerCase();
  if (!['true', 'on', '1', 'yes'].includes(consent)) throw unprocessable(CREATOR_MESSAGES.consentRequired);
  const photo: CleanImage = clean;
  const face = await photoFace(ctx, photo, null);
  const stored = await storeCleanImage(ctx, { userId, area: 'creators', clean: photo });
  try {
    const row = await avatarsRepository.insertUploadedPhoto(ctx.db.kysely, {
      owner_user_id: userId,
      created_by_user_id: userId,
      image_key: stored.key,
      name: name.data,
      consent_confirmed_at: new Date().toISOString(),
      consent_by_user_id: userId,
      consent_text: creatorConsentText(name.data),
      face_json: JSON.stringify(face),
    });
    // Their card's talking preview is made in the background (decision 207); the card shows the photo meanwhile.
    await submitJobs(ctx, userId, async (trx) => ({
      jobIds: [
        await createJob(trx, renderCreatorPreviewJob, {
          userId,
          payload: { avatarId: row.id },
          projectName: `${name.data} · preview`,
        }),
      ],
    }));
    return toCreator(ctx, row, await ownerEmail(ctx, userId));
  } catch (err) {
    await ctx.files.delete(stored.key).catch(() => undefined);
    throw err;
  }
}

/** PATCH /creators/{id}: a new name; the consent record keeps the words the person agreed to. */
export async function renameCreator(
  ctx: AppContext,
  userId: number,
  id: number,
  body: RenameCreatorRequest,
): Promise<Creator> {
  if (!(await avatarsRepository.findOwn(ctx.db.kysely, userId, id))) throw notFound();
  await avatarsRepository.rename(ctx.db.kysely, id, body.name);
  return getCreator(ctx, userId, id);
}

/**
 * DELETE /creators/{id}: the creator leaves every project that chose it, and its photo and the stills made of it
 * holding products are deleted from storage. Videos already made stay the owner's until they delete them.
 */
export async function deleteCreator(ctx: AppContext, userId: number, id: number): Promise<void> {
  const row = await avatarsRepository.findOwn(ctx.db.kysely, userId, id);
  if (!row) throw notFound();
  const keys = await avatarsRepository.remove(ctx.db.kysely, id);
  if (!keys || !row) throw notFound();
  const all = [...keys, creatorPreviewKey(row.image_key)];
  await Promise.all(all.map((k) => ctx.files.delete(k).catch(() => undefined)));
}
