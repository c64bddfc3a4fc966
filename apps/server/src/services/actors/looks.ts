import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  INSUFFICIENT_CREDITS,
  MESSAGES,
  MOUTH_STILL_SHAPES,
  type PhotoFace,
  costOf,
  type ActorLook,
  type ActorLookStep,
} from '@hookreel/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { actorLooksRepository, type ActorLookRow } from '../../db/repositories/actor-looks.ts';
import { avatarsRepository, type AvatarRow } from '../../db/repositories/avatars.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { notFound, unprocessable } from '../../errors.ts';
import { defineJob, PermanentJobError, readPayload, type JobContext } from '../../jobs/definition.ts';
import type { MouthStillFiles } from '../../media/port.ts';
import { createJob, submitJobs } from '../jobs/index.ts';
import { catalogueActorPhotoKey, realisticCatalogueActor } from './catalogue-actor-photo.ts';
import { avatarFace } from './face.ts';

/**
 * An actor's once-per-user upgrades (decision 216, docs/product.md#photoreal-catalogue): a catalogue actor made a
 * photoreal still by the images provider, with its face found once and kept like an avatar's, so Draft renders
 * animate it offline at Draft's price; and real mouth stills, made once by the image-edit provider from the actor's
 * own photo, which every later Draft render shows. Both are priced up front and charged once.
 */

const AvatarPayload = z.object({ avatarId: z.number().int().positive() });

/** Stored mouth stills: the photo they were made from (they line up with it only) and each still's key. */
const StoredMouths = z.object({ source_key: z.string(), stills: z.record(z.string(), z.string()) });
type StoredMouths = z.infer<typeof StoredMouths>;

function storedMouths(row: Pick<ActorLookRow, 'mouths_json'> | null): StoredMouths | null {
  if (!row?.mouths_json) return null;
  try {
    const parsed = StoredMouths.safeParse(JSON.parse(row.mouths_json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function storedFace(row: Pick<ActorLookRow, 'face_json'> | null): PhotoFace | null {
  return avatarFace(row);
}

/** The photo an actor's mouth stills are made from, with its face: an upload's own, or a catalogue actor's still. */
function mouthSource(avatar: AvatarRow, look: ActorLookRow | null): { key: string; face: PhotoFace } | null {
  if (avatar.catalogue_actor_id === null) {
    const face = avatarFace(avatar);
    return face ? { key: avatar.image_key, face } : null;
  }
  const face = storedFace(look);
  return look?.photo_key && face ? { key: look.photo_key, face } : null;
}

/**
 * What a Draft render of this actor uses from the user's look (null when nothing was made): the photoreal still
 * and its face for a catalogue actor, and the mouth stills made of the photo the render animates.
 */
export interface ResolvedLook {
  photo: { key: string; face: PhotoFace } | null;
  mouths: Record<string, string> | null;
}

export async function resolvedLook(
  ctx: Pick<AppContext, 'db'>,
  userId: number,
  avatar: AvatarRow,
): Promise<ResolvedLook | null> {
  const look = await actorLooksRepository.find(ctx.db.kysely, userId, avatar.id);
  if (!look) return null;
  const face = storedFace(look);
  const photo = avatar.catalogue_actor_id !== null && look.photo_key && face ? { key: look.photo_key, face } : null;
  const source = mouthSource(avatar, look);
  const mouths = storedMouths(look);
  return { photo, mouths: mouths && source && mouths.source_key === source.key ? mouths.stills : null };
}

/** The same, with the files on local disk for a render in `jc.workDir` (a missing file leaves its part out). */
export async function localLook(
  jc: JobContext,
  userId: number,
  avatar: AvatarRow,
): Promise<{ photo: { path: string; face: PhotoFace } | null; mouths: MouthStillFiles | null } | null> {
  const look = await resolvedLook(jc.app, userId, avatar);
  if (!look) return null;
  let photo: { path: string; face: PhotoFace } | null = null;
  if (look.photo && (await jc.app.files.exists(look.photo.key))) {
    const local = path.join(jc.workDir, 'actor-photoreal.png');
    await jc.app.files.toLocalFile(look.photo.key, local);
    photo = { path: local, face: look.photo.face };
  }
  let mouths: MouthStillFiles | null = null;
  if (look.mouths) {
    mouths = {};
    for (const [shape, key] of Object.entries(look.mouths)) {
      if (!(await jc.app.files.exists(key))) continue;
      const local = path.join(jc.workDir, `mouth-${shape}.png`);
      await jc.app.files.toLocalFile(key, local);
      mouths[shape] = local;
    }
  }
  return { photo, mouths };
}

/** For the actor cards: which actors the user made photoreal (their still's key) and gave real mouths. */
export async function looksForCards(
  ctx: Pick<AppContext, 'db'>,
  userId: number,
): Promise<Map<number, { photoKey: string | null; mouths: boolean }>> {
  const rows = await actorLooksRepository.listOf(ctx.db.kysely, userId);
  return new Map(
    rows.map((r) => [
      r.avatar_id,
      { photoKey: r.photo_key && storedFace(r) ? r.photo_key : null, mouths: !!r.mouths_json },
    ]),
  );
}

const mouthStillsPrice = () => costOf('mouthStill', MOUTH_STILL_SHAPES.length);

async function activeJobFor(ctx: AppContext, userId: number, name: string, avatarId: number): Promise<number | null> {
  const active = await jobsRepository.activeForUser(ctx.db.kysely, userId, [name]);
  return active.find((j) => readPayload(AvatarPayload, j)?.avatarId === avatarId)?.id ?? null;
}

async function visibleAvatar(ctx: AppContext, userId: number, avatarId: number): Promise<AvatarRow> {
  const avatar = await avatarsRepository.findVisible(ctx.db.kysely, userId, avatarId);
  if (!avatar) throw notFound();
  return avatar;
}

/** GET /avatars/{id}/look: what can be made of this actor for the caller, what is made, and the prices. */
export async function getActorLook(ctx: AppContext, userId: number, avatarId: number): Promise<ActorLook> {
  const avatar = await visibleAvatar(ctx, userId, avatarId);
  const look = await actorLooksRepository.find(ctx.db.kysely, userId, avatarId);
  const caps = ctx.media.capabilities().stages;
  const catalogue = avatar.catalogue_actor_id !== null;
  const photoMade = catalogue && !!look?.photo_key && !!storedFace(look);
  const photoreal: ActorLookStep = {
    available: catalogue && caps.characters.remote,
    reason: !catalogue
      ? MESSAGES.looks.photorealNotCatalogue
      : !caps.characters.remote
        ? MESSAGES.looks.photorealNoProvider
        : null,
    made: photoMade,
    price: costOf('photorealActor'),
    job_id: await activeJobFor(ctx, userId, makePhotorealActorJob.name, avatarId),
  };
  const source = mouthSource(avatar, look);
  const mouths = storedMouths(look);
  const mouthReason = !caps.product_in_hand.remote
    ? MESSAGES.looks.mouthsNoProvider
    : !source
      ? catalogue
        ? MESSAGES.looks.mouthsNeedPhoto
        : MESSAGES.looks.mouthsNoFace
      : null;
  return {
    avatar_id: avatar.id,
    photo_url: photoMade ? look!.photo_key : null,
    photoreal: photoMade ? { ...photoreal, available: true, reason: null } : photoreal,
    mouth_stills: {
      available: mouthReason === null,
      reason: mouthReason,
      made: !!mouths && !!source && mouths.source_key === source.key,
      price: mouthStillsPrice(),
      job_id: await activeJobFor(ctx, userId, makeMouthStillsJob.name, avatarId),
    },
  };
}

/**
 * POST /avatars/{id}/photoreal: queues the one image that makes a catalogue actor photoreal for the caller, charged
 * `PRICES.photorealActor`. Already made, or being made: nothing new is queued or charged.
 */
export async function makePhotoreal(ctx: AppContext, userId: number, avatarId: number): Promise<ActorLook> {
  const look = await getActorLook(ctx, userId, avatarId);
  if (look.photoreal.made || look.photoreal.job_id !== null) return look;
  if (!look.photoreal.available) throw unprocessable(look.photoreal.reason ?? MESSAGES.looks.photorealFailed);
  await submitJobs(ctx, userId, async (trx) => ({
    jobIds: [
      await createJob(trx, makePhotorealActorJob, {
        userId,
        payload: { avatarId },
        projectName: 'Photoreal actor',
        price: 'photorealActor',
        insufficientMessage: INSUFFICIENT_CREDITS.photoreal,
        maxAttempts: 2,
      }),
    ],
  }));
  return getActorLook(ctx, userId, avatarId);
}

/**
 * POST /avatars/{id}/mouth-stills: queues the actor's real mouth stills for the caller (one image edit per shape),
 * charged up front. Already made for this photo, or being made: nothing new is queued or charged.
 */
export async function makeMouthStills(ctx: AppContext, userId: number, avatarId: number): Promise<ActorLook> {
  const look = await getActorLook(ctx, userId, avatarId);
  if (look.mouth_stills.made || look.mouth_stills.job_id !== null) return look;
  if (!look.mouth_stills.available) throw unprocessable(look.mouth_stills.reason ?? MESSAGES.looks.mouthsFailed);
  await submitJobs(ctx, userId, async (trx) => ({
    jobIds: [
      await createJob(trx, makeMouthStillsJob, {
        userId,
        payload: { avatarId },
        projectName: 'Real mouths',
        price: 'mouthStill',
        units: MOUTH_STILL_SHAPES.length,
        insufficientMessage: INSUFFICIENT_CREDITS.mouthStills,
        maxAttempts: 2,
      }),
    ],
  }));
  return getActorLook(ctx, userId, avatarId);
}

/**
 * make-photoreal-actor: the catalogue actor's photoreal still (the same one Realistic renders make and keep, so a
 * user who already has it from a Realistic video pays the provider nothing more), then its face found once. A still
 * whose face cannot be animated fails the job, which releases the credits.
 */
export const makePhotorealActorJob = defineJob({
  name: 'make-photoreal-actor',
  lane: 'render',
  payload: AvatarPayload,
  async handler(job, jc) {
    const avatar = await avatarsRepository.findVisible(jc.app.db.kysely, job.userId, job.payload.avatarId);
    if (!avatar?.catalogue_actor_id) throw new PermanentJobError('The catalogue actor no longer exists');
    const tag = jc.app.media.catalogueActorPhotoTag(avatar.catalogue_actor_id);
    if (!tag) throw new PermanentJobError(MESSAGES.looks.photorealNoProvider);
    await jc.progress(10, 'Making the actor photoreal (one image, kept for your Draft videos)');
    const still = await realisticCatalogueActor(jc, job.userId, avatar.catalogue_actor_id, 'photoreal.png');
    if (!still) throw new PermanentJobError(MESSAGES.looks.photorealNoProvider);
    await jc.progress(80, 'Finding the face on the photo');
    const found = await jc.app.media.analyzePortrait({ imagePath: still, signal: jc.signal });
    if (!found.ok) throw new PermanentJobError(`The photoreal still cannot be animated: ${found.message}`);
    return {
      result: {
        photo_key: catalogueActorPhotoKey(job.userId, avatar.catalogue_actor_id, tag),
        photo_tag: tag,
        face: found.face,
      },
      logLine: 'The actor is photoreal: Draft videos animate this still',
    };
  },
  async commit(trx, job, outcome) {
    const r = outcome.result;
    if (!r) return;
    await actorLooksRepository.save(trx, job.userId, job.payload.avatarId, {
      photo_key: r.photo_key,
      photo_tag: r.photo_tag,
      face_json: JSON.stringify(r.face),
    });
  },
});

/**
 * make-mouth-stills: one image edit per mouth shape of the actor's photo (their upload, or their photoreal still),
 * each stored under an unguessable key beside the user's actors; the render jobs read them from the look.
 */
export const makeMouthStillsJob = defineJob({
  name: 'make-mouth-stills',
  lane: 'render',
  payload: AvatarPayload,
  async handler(job, jc) {
    const db = jc.app.db.kysely;
    const avatar = await avatarsRepository.findVisible(db, job.userId, job.payload.avatarId);
    if (!avatar) throw new PermanentJobError('The actor no longer exists');
    const source = mouthSource(avatar, await actorLooksRepository.find(db, job.userId, avatar.id));
    if (!source) throw new PermanentJobError(MESSAGES.looks.mouthsNeedPhoto);
    const photoPath = path.join(jc.workDir, `mouth-photo${path.extname(source.key) || '.png'}`);
    await jc.app.files.toLocalFile(source.key, photoPath);
    await jc.progress(10, `Making ${MOUTH_STILL_SHAPES.length} real mouth stills from the actor's photo`);
    const made = await jc.app.media.makeMouthStills({
      photoPath,
      face: source.face,
      outDir: path.join(jc.workDir, 'mouths'),
      signal: jc.signal,
      onUsage: (usage) => jc.recordUsage(usage),
    });
    const stills: Record<string, string> = {};
    const token = randomBytes(8).toString('hex');
    for (const [shape, file] of Object.entries(made)) {
      if (!file) continue;
      const key = `users/${job.userId}/actors/mouths-${avatar.id}-${token}-${shape}.png`;
      await jc.app.files.putFile(key, file, 'image/png');
      stills[shape] = key;
    }
    return {
      result: { source_key: source.key, stills },
      logLine: 'Real mouth stills ready: Draft videos of this actor show them',
    };
  },
  async commit(trx, job, outcome) {
    const r = outcome.result;
    if (!r) return;
    await actorLooksRepository.save(trx, job.userId, job.payload.avatarId, { mouths_json: JSON.stringify(r) });
  },
});
