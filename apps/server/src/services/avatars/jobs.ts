import path from 'node:path';
import { DEFAULT_CAPTION_STYLE } from '@hookreel/contracts';
import { z } from 'zod';
import { avatarsRepository, type AvatarRow } from '../../db/repositories/avatars.ts';
import { defineJob, PermanentJobError } from '../../jobs/definition.ts';
import type { RenderProjectVideoInput } from '../../media/port.ts';
import { avatarFace } from '../actors/index.ts';

/**
 * Where an actor's talking preview is kept: beside their picture, named after it (a creator's photo key is
 * unguessable, so is this one), so it is found without a column and deleted with the photo (decision 207). The
 * catalogue's are `catalogue/actor-<id>-talking.mp4`, shared by every user (decision 219).
 */
export const talkingPreviewKey = (pictureKey: string): string => `${pictureKey.replace(/\.[^./]+$/, '')}-talking.mp4`;
/** A creator's preview key (their photo is the picture). */
export const creatorPreviewKey = talkingPreviewKey;

/** The line an actor says in their card's preview: short, and the same for everyone. */
export const previewLine = (name: string): string => `Hi, I'm ${name}. This is how I'll look in your videos.`;

/** How the engine animates the actor: a catalogue actor as its drawn rig, any other picture as a photo. */
function previewActor(avatar: AvatarRow, imagePath: string): NonNullable<RenderProjectVideoInput['actor']> {
  const gender = avatar.gender === 'male' ? 'male' : 'female';
  if (avatar.catalogue_actor_id !== null) {
    return { imagePath, gender, rig: { actor: { catalogueActorId: avatar.catalogue_actor_id }, product: null } };
  }
  return { imagePath, gender, face: avatarFace(avatar), realPerson: true };
}

/**
 * render-creator-preview: a few seconds of an actor talking (Draft: a creator's photo through the engine's photo
 * actor, a catalogue actor as its drawn rig; the local voice), rendered once in the background, so the actor's
 * card shows what a video of them will look like before anything is spent. Queued when a creator is added, and
 * for any actor the user can see when they first ask (decision 219; the name predates that and queued rows carry
 * it). Free; not a video of the user's (not listed among their jobs).
 */
export const renderCreatorPreviewJob = defineJob({
  name: 'render-creator-preview',
  // With the renders (their slots bound the CPU), not with the webhooks' many light slots.
  lane: 'render',
  payload: z.object({ avatarId: z.number().int().positive() }),
  async handler(job, jc) {
    const db = jc.app.db.kysely;
    const avatar = await avatarsRepository.findVisible(db, job.userId, job.payload.avatarId);
    if (!avatar) throw new PermanentJobError('The actor no longer exists');
    const key = talkingPreviewKey(avatar.image_key);
    if (await jc.app.files.exists(key)) return { result: { preview_key: key }, logLine: 'Preview already made' };
    const imagePath = path.join(jc.workDir, `actor${path.extname(avatar.image_key)}`);
    await jc.app.files.toLocalFile(avatar.image_key, imagePath);
    const name = avatar.name ?? 'your actor';
    const out = await jc.app.media.renderProjectVideo({
      userId: job.userId,
      jobId: job.id,
      project: { id: 0, name, script: previewLine(name), language: 'english', accent: 'american', fileKey: null },
      actor: previewActor(avatar, imagePath),
      style: { captionStyle: DEFAULT_CAPTION_STYLE, cta: null, musicPath: null },
      quality: 'draft',
      watermark: false,
      workDir: jc.workDir,
      signal: jc.signal,
      onProgress: (percent, line) => jc.progress(Math.min(95, percent), line),
    });
    // The actor may have been deleted while this rendered: then nothing is stored.
    if (!(await avatarsRepository.findVisible(db, job.userId, avatar.id))) {
      throw new PermanentJobError('The actor no longer exists');
    }
    await jc.app.files.putFile(key, out.videoPath, 'video/mp4');
    return { result: { preview_key: key }, logLine: 'Talking preview ready' };
  },
});
