import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { isRealisticMerge, projectCutout, projectCutoutKey, storedPlacement } from '../actors/index.ts';
import { projectsRepository, type ProjectRow } from '../../db/repositories/projects.ts';
import { defineJob, PermanentJobError, type JobContext } from '../../jobs/definition.ts';
import { jobPaidPrefix } from '../../jobs/files.ts';
import type { MouthStillFiles, ProjectForRender, RenderProjectVideoInput } from '../../media/port.ts';
import { Aspect, MESSAGES, VideoQuality, type Box, type MaskPlacement, type PhotoFace } from '@hookreel/contracts';
import { rotatedBox } from '../../media/values.ts';
import { qualityLine, storeAspects, storeQuality } from '../video/index.ts';
import { realisticCatalogueActor } from '../actors/index.ts';
import { withProviderErrors } from '../video/index.ts';
import { filesVoiceStore } from '../video/index.ts';
import { isOnFreeTrial } from '../account/index.ts';
import { avatarFace, localLook } from '../actors/index.ts';
import { renderBrandLook } from '../video/index.ts';
import { localMusic, renderStyleOf } from '../video/index.ts';
import { localVoiceOver } from './voice.ts';

const id = z.number().int().positive();

/**
 * One video of a project (POST /jobs/{projectId}/queue, and one per merged actor from the merge screen).
 * Reloads the project (it may have changed or gone since queueing) and its actor — the merged image (actor
 * holding the product) when there is one — renders through the media port in the job's work dir, and stores the
 * outputs under the job's deterministic keys so a retry overwrites them. Credits are captured by the runner.
 */
export const renderProjectVideoJob = defineJob({
  name: 'render-project-video',
  video: true,
  lane: 'render',
  // quality: absent on jobs queued before Draft/Realistic existed, which were drafts.
  // aspects: the frame shapes chosen when it was queued (absent on older jobs: 9:16 only).
  // upgradeOf: the draft job a "Make realistic" re-renders, so the draft can show how its upgrade is going.
  payload: z.object({
    projectId: id,
    avatarId: id.optional(),
    quality: VideoQuality.optional(),
    aspects: z.array(Aspect).optional(),
    upgradeOf: id.optional(),
  }),
  async handler(job, jc) {
    const { projectId, avatarId } = job.payload;
    const quality = job.payload.quality ?? 'draft';
    // Read once: the script and names for the render, and the look and voice beside them.
    const row = await projectsRepository.findOwned(jc.app.db.kysely, job.userId, projectId);
    if (!row) throw new PermanentJobError('The project no longer exists');
    const project = forRender(row);
    if (!project.script.trim()) throw new PermanentJobError('The project has no script to speak');
    await jc.progress(2, `Rendering "${project.name}"`);
    const actor =
      quality === 'realistic'
        ? await withProviderErrors(() =>
            realisticActorFor(jc, job.userId, job.id, projectId, avatarId ?? null, project.fileKey),
          )
        : await actorFor(jc, job.userId, projectId, avatarId ?? null, project.fileKey);
    const watermark = await isOnFreeTrial(jc.app, job.userId);
    const style = renderStyleOf(row);
    const musicPath = await localMusic(jc, style.musicKey);
    const brand = await renderBrandLook(jc, job.userId, row, { realPersonPhoto: actor?.realPerson === true });
    const voiceOver = await localVoiceOver(jc, row);
    if (voiceOver && 'missing' in voiceOver) {
      throw new PermanentJobError(
        'Your voice-over recording is missing: upload it again or choose the generated voice',
      );
    }
    const out = await withProviderErrors(() =>
      jc.app.media.renderProjectVideo({
        userId: job.userId,
        jobId: job.id,
        project,
        actor,
        style: {
          captionStyle: style.captionStyle,
          cta: style.cta,
          musicPath,
          voiceSpeed: style.voiceSpeed,
          brand,
          voiceOverPath: voiceOver?.path ?? null,
          aspects: job.payload.aspects ?? [],
        },
        quality,
        // The voice is paid per take: kept per job, so a retry after a later step failed does not buy it again.
        voiceStore: quality === 'realistic' && !voiceOver ? filesVoiceStore(jc, paidPrefix(job.userId, job.id)) : null,
        watermark,
        workDir: jc.workDir,
        signal: jc.signal,
        onProgress: (percent, line) => jc.progress(5 + percent * 0.9, line),
        onUsage: (usage) => jc.recordUsage(usage),
      }),
    );
    await jc.progress(96, 'Saving the video');
    const videoKey = jc.outputKey('video.mp4');
    await jc.app.files.putFile(videoKey, out.videoPath, 'video/mp4');
    let posterKey: string | null = null;
    if (out.posterPath) {
      posterKey = jc.outputKey('poster.jpg');
      await jc.app.files.putFile(posterKey, out.posterPath, 'image/jpeg');
    }
    const report = await storeQuality(jc.app.files, out, (name) => jc.outputKey(name), jc.workDir);
    const aspects = await storeAspects(jc.app.files, out.aspects, (name) => jc.outputKey(name), jc.workDir);
    // What the video says of itself (decision 201), for the zips' manifests.
    const labels = { real_photo: actor?.realPerson === true, ai_label: brand.aiLabel === true };
    return {
      videoKey,
      posterKey,
      result: { ...report, ...(aspects.length ? { aspects } : {}), ...labels },
      logLine: qualityLine(report),
    };
  },
});

/** Where a Realistic project job keeps what it paid a provider for (voice, edited still) for its retries. */
const paidPrefix = (userId: number, jobId: number): string => jobPaidPrefix({ user_id: userId, id: jobId });

/** The actor's still on local disk: the named actor, else the project's first chosen one; null for a generated actor. */
async function actorFor(
  jc: JobContext,
  userId: number,
  projectId: number,
  avatarId: number | null,
  fileKey: string | null,
): Promise<RenderProjectVideoInput['actor']> {
  const db = jc.app.db.kysely;
  const chars = await projectsRepository.charactersOf(db, [projectId]);
  const chosen = avatarId !== null ? chars.find((c) => c.avatar_id === avatarId) : chars.find((c) => c.selected);
  if (avatarId !== null && !chosen) throw new PermanentJobError('The actor is no longer part of the project');
  if (!chosen) return null;
  const avatar = await avatarsRepository.findVisible(db, userId, chosen.avatar_id);
  const key = chosen.merge_status === 'merged' && chosen.merged_key ? chosen.merged_key : (avatar?.image_key ?? null);
  if (!key) return null;
  const imagePath = path.join(jc.workDir, `actor${path.extname(key)}`);
  await jc.app.files.toLocalFile(key, imagePath);
  const gender = avatar?.gender === 'male' ? 'male' : 'female';
  const productBox = productBoxOf(chosen, key);
  // What the user had made of this actor once (decision 216): a photoreal still, real mouth stills.
  const look = avatar ? await localLook(jc, userId, avatar) : null;
  if (avatar?.catalogue_actor_id && look?.photo) {
    return photorealDraftActor(jc, userId, projectId, fileKey, chosen, gender, look.photo, look.mouths);
  }
  if (!avatar?.catalogue_actor_id) {
    const face = avatarFace(avatar);
    // A Draft merge's still is the upload fitted into the frame with the product on it: the points were found on the
    // upload, so it comes along for the media layer to carry them over (decision 184). A Realistic merge's still
    // is the provider's picture, which they do not describe.
    let faceSourcePath: string | null = null;
    if (face && avatar && key !== avatar.image_key && !isRealisticMerge(key)) {
      faceSourcePath = path.join(jc.workDir, `actor-photo${path.extname(avatar.image_key)}`);
      await jc.app.files.toLocalFile(avatar.image_key, faceSourcePath);
    }
    // Not a catalogue drawing: an uploaded photo of a real person (decision 201).
    const mouthStills = look?.mouths ?? null;
    return { imagePath, gender, productBox, face, faceSourcePath, realPerson: true, mouthStills };
  }
  // A catalogue actor is drawn by the engine: it talks and holds the product itself (its cut-out and placement).
  let product: { cutoutPath: string; placement: MaskPlacement } | null = null;
  const placement = storedPlacement(chosen.mask_placement);
  if (chosen.merge_status === 'merged' && placement && fileKey) {
    const cutoutKey = projectCutoutKey(userId, projectId, fileKey);
    if (await jc.app.files.exists(cutoutKey)) {
      const cutoutPath = path.join(jc.workDir, 'cutout.png');
      await jc.app.files.toLocalFile(cutoutKey, cutoutPath);
      product = { cutoutPath, placement };
    }
  } else if (chosen.merge_status === 'not_merged' && placement && fileKey) {
    // Placed but never merged (a batch row, decision 138): the drawn actor holds the product all the same, from
    // the cut-out the merge would have made.
    await jc.progress(3, 'Cutting the product out of its photo');
    const cutoutPath = await projectCutout(jc, userId, projectId, fileKey);
    product = { cutoutPath, placement };
  }
  // Merged, but the cut-out is gone (the product image changed since): the merged still is the truth.
  if (chosen.merge_status === 'merged' && !product) return { imagePath, gender, productBox };
  return { imagePath, gender, rig: { actor: { catalogueActorId: avatar.catalogue_actor_id }, product } };
}

/**
 * A Draft video of a catalogue actor the user made photoreal (decision 216): their still animated offline by the
 * photo actor, with the face found on it once. A placed product (merged or not) is the local composite of the cut-out
 * on that still, as a Draft merge of an uploaded photo is, so the face points and mouth stills are carried into its
 * frame (decision 184). Not a real person: the still is made up (decision 201).
 */
async function photorealDraftActor(
  jc: JobContext,
  userId: number,
  projectId: number,
  fileKey: string | null,
  chosen: Parameters<typeof productBoxOf>[0] & { merge_status: string | null },
  gender: 'male' | 'female',
  photo: { path: string; face: PhotoFace },
  mouthStills: MouthStillFiles | null,
): Promise<RenderProjectVideoInput['actor']> {
  const placement = storedPlacement(chosen.mask_placement);
  if (!placement || !fileKey || chosen.merge_status === 'failed') {
    return { imagePath: photo.path, gender, face: photo.face, realPerson: false, mouthStills };
  }
  const cutoutPath = await projectCutout(jc, userId, projectId, fileKey);
  const held = path.join(jc.workDir, 'actor-photoreal-held.png');
  await jc.app.media.compositeProduct({
    actorPath: photo.path,
    productPath: cutoutPath,
    placement,
    outPath: held,
    signal: jc.signal,
  });
  return {
    imagePath: held,
    gender,
    face: photo.face,
    faceSourcePath: photo.path,
    productBox: productBoxOf({ ...chosen, merged_key: held }, held),
    realPerson: false,
    mouthStills,
  };
}

/**
 * The still a Realistic video animates: the actor holding the product as the image-edit provider made it. A merge
 * made in Realistic mode is used as it is; a draft merge (the local composite, or a drawn actor) or a placement
 * never merged (a batch row) is made again here by the provider from the actor's picture, the product cut-out and
 * the placement the user drew, so "Make realistic" keeps the same actor and placement. A catalogue actor's picture
 * is a drawing: its photoreal picture (made once per user and actor) is what the edit and the animation get. An
 * actor without a placement is animated as pictured. Without an actor there is nobody real to animate: the job
 * fails (and releases its credits) rather than animate a drawn stand-in — queueing refuses it first (decision 125).
 */
async function realisticActorFor(
  jc: JobContext,
  userId: number,
  jobId: number,
  projectId: number,
  avatarId: number | null,
  fileKey: string | null,
): Promise<NonNullable<RenderProjectVideoInput['actor']>> {
  const db = jc.app.db.kysely;
  const chars = await projectsRepository.charactersOf(db, [projectId]);
  const chosen = avatarId !== null ? chars.find((c) => c.avatar_id === avatarId) : chars.find((c) => c.selected);
  if (avatarId !== null && !chosen) throw new PermanentJobError('The actor is no longer part of the project');
  const avatar = chosen ? await avatarsRepository.findVisible(db, userId, chosen.avatar_id) : undefined;
  if (!chosen || !avatar) throw new PermanentJobError(MESSAGES.realistic.needsActor);
  const gender = avatar.gender === 'male' ? 'male' : 'female';
  const merged = chosen.merge_status === 'merged' ? chosen.merged_key : null;
  const realPerson = avatar.catalogue_actor_id === null;
  if (merged && isRealisticMerge(merged)) {
    const imagePath = path.join(jc.workDir, `actor${path.extname(merged)}`);
    await jc.app.files.toLocalFile(merged, imagePath);
    return { imagePath, gender, productBox: productBoxOf(chosen, merged), realPerson };
  }
  const photo = avatar.catalogue_actor_id ? await realisticCatalogueActor(jc, userId, avatar.catalogue_actor_id) : null;
  let picturePath = photo;
  if (!picturePath) {
    picturePath = path.join(jc.workDir, `picture${path.extname(avatar.image_key)}`);
    await jc.app.files.toLocalFile(avatar.image_key, picturePath);
  }
  const placement = storedPlacement(chosen.mask_placement);
  if (!placement || !fileKey) return { imagePath: picturePath, gender, realPerson };
  // The cut-out the merge (or a draft render) made, or made here when it never was or the product changed since.
  const imagePath = path.join(jc.workDir, 'held-realistic.png');
  // The edit is paid per call: kept per job (for this actor picture, product and placement), so a retry after a
  // later step failed animates the still it bought instead of editing again.
  const tag = createHash('sha256')
    .update(
      `${photo ? `catalogue-${avatar.catalogue_actor_id}` : avatar.image_key}\n${fileKey}\n${chosen.mask_placement}`,
    )
    .digest('hex')
    .slice(0, 12);
  const paidKey = `${paidPrefix(userId, jobId)}/held-${tag}.png`;
  if (await jc.app.files.exists(paidKey)) {
    await jc.app.files.toLocalFile(paidKey, imagePath);
    await jc.log('Reusing the product-in-hand still this job already paid for');
  } else {
    const cutoutPath = await projectCutout(jc, userId, projectId, fileKey);
    await jc.progress(4, 'Placing the product in the actor’s hand (photoreal)');
    await jc.app.media.compositeProduct({
      actorPath: picturePath,
      productPath: cutoutPath,
      placement,
      outPath: imagePath,
      signal: jc.signal,
      quality: 'realistic',
      onUsage: (usage) => jc.recordUsage(usage),
    });
    await jc.app.files.putFile(paidKey, imagePath, 'image/png');
  }
  return { imagePath, gender, productBox: productBoxOf({ ...chosen, merged_key: imagePath }, imagePath), realPerson };
}

/**
 * Where a merged still holds the product (576x1024 frame), so text keeps off it: centred where the merge put
 * it (mask placement), the placement editor's box size, rotated as placed. Null for a still without a product.
 */
function productBoxOf(
  c: {
    merged_key: string | null;
    mask_placement: string | null;
    x: number | null;
    y: number | null;
    width: number | null;
    height: number | null;
    rotation: number;
  },
  key: string,
): Box | null {
  if (key !== c.merged_key || c.x === null || c.y === null || !c.width || !c.height) return null;
  const p = storedPlacement(c.mask_placement);
  const cx = p ? p.position_x : c.x + c.width / 2;
  const cy = p ? p.position_y : c.y + c.height / 2;
  return rotatedBox(cx, cy, c.width, c.height, p ? p.rotation : c.rotation);
}

/** What the engine needs of a project to render it. */
const forRender = (p: ProjectRow): ProjectForRender => ({
  id: p.id,
  name: p.name,
  script: p.script,
  language: p.language,
  accent: p.accent,
  voiceId: p.voice_id ?? null,
  fileKey: p.file_key,
});
