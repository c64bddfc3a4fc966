import path from 'node:path';
import { DEFAULT_CAPTION_STYLE } from '@hookreel/contracts';
import { z } from 'zod';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { defineJob, PermanentJobError } from '../../jobs/definition.ts';
import { avatarFace } from '../actors/index.ts';

/**
 * Where a creator's talking preview is kept: beside their photo, named after it (the photo's key is unguessable, so
 * is this one), so it is found without a column and deleted with the photo (decision 207).
 */
export const creatorPreviewKey = (photoKey: string): string => `${photoKey.replace(/\.[^./]+$/, '')}-talking.mp4`;

/** The line a creator says in their card's preview: short, and the same for everyone. */
export const previewLine = (name: string): string => `Hi, I'm ${name}. This is how I'll look in your videos.`;

/**
 * render-creator-preview: a few seconds of the creator talking (Draft: their photo through the engine's photo actor,
 * the local voice), rendered once in the background when the creator is added, so their card shows what a video of
 * them will look like before anything is spent. Free; not a video of the user's (not listed among their jobs).
 */
export const renderCreatorPreviewJob = defineJob({
  name: 'render-creator-preview',
  // With the renders (their slots bound the CPU), not with the webhooks' many light slots.
  lane: 'render',
  payload: z.object({ avatarId: z.number().int().positive() }),
  async handler(job, jc) {
    const avatar = await avatarsRepository.findOwn(jc.app.db.kysely, job.userId, job.payload.avatarId);
    if (!avatar) throw new PermanentJobError('The creator no longer exists');
    const key = creatorPreviewKey(avatar.image_key);
    if (await jc.app.files.exists(key)) return { result: { preview_key: key }, logLine: 'Preview already made' };
    const imagePath = path.join(jc.workDir, `creator${path.extname(avatar.image_key)}`);
    await jc.app.files.toLocalFile(avatar.image_key, imagePath);
    const name = avatar.name ?? 'your creator';
    const out = await jc.app.media.renderProjectVideo({
      userId: job.userId,
      jobId: job.id,
      project: { id: 0, name, script: previewLine(name), language: 'english', accent: 'american', fileKey: null },
      actor: {
        imagePath,
        gender: avatar.gender === 'male' ? 'male' : 'female',
        face: avatarFace(avatar),
        realPerson: true,
      },
      style: { captionStyle: DEFAULT_CAPTION_STYLE, cta: null, musicPath: null },
      quality: 'draft',
      watermark: false,
      workDir: jc.workDir,
      signal: jc.signal,
      onProgress: (percent, line) => jc.progress(Math.min(95, percent), line),
    });
    // The creator may have been deleted while this rendered: then nothing is stored.
    if (!(await avatarsRepository.findOwn(jc.app.db.kysely, job.userId, avatar.id))) {
      throw new PermanentJobError('The creator no longer exists');
    }
    await jc.app.files.putFile(key, out.videoPath, 'video/mp4');
    return { result: { preview_key: key }, logLine: 'Talking preview ready' };
  },
});
