import path from 'node:path';
import { MESSAGES, VideoQuality } from '@hookreel/contracts';
import { z } from 'zod';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { defineJob, PermanentJobError } from '../../jobs/definition.ts';
import { withEstimatedProgress } from '../video/index.ts';
import { localLook, realisticCatalogueActor } from '../actors/index.ts';
import { withProviderErrors } from '../video/index.ts';
import { cutoutAwaitsReview, projectCutout, REALISTIC_MERGE_FILE, storedPlacement } from '../actors/index.ts';

const id = z.number().int().positive();

/**
 * Product in hand: the project's product, cut out of its photo, put into one actor's hand at the placement chosen
 * in the editor — composited locally (Draft), or by the image-edit provider (Realistic). The cut-out is made once
 * per product image and reused.
 */
export const mergeCharacterJob = defineJob({
  name: 'merge-character',
  lane: 'render',
  payload: z.object({
    projectId: id,
    avatarId: id,
    maskKey: z.string().nullable().optional(),
    quality: VideoQuality.optional(),
  }),
  async handler(job, jc) {
    const { projectId, avatarId } = job.payload;
    const realistic = job.payload.quality === 'realistic';
    const db = jc.app.db.kysely;
    const project = await projectsRepository.findOwned(db, job.userId, projectId);
    if (!project?.file_key) throw new PermanentJobError('The project has no product image');
    const avatar = await avatarsRepository.findVisible(db, job.userId, avatarId);
    if (!avatar) throw new PermanentJobError('The actor no longer exists');
    const character = await projectsRepository.findCharacter(db, projectId, avatarId);
    const placement = storedPlacement(character?.mask_placement);
    if (!placement) throw new PermanentJobError('The merge has no placement');
    await jc.progress(10, 'Cutting the product out of its photo');
    const fileKey = project.file_key;
    const cutoutPath = await withEstimatedProgress(
      (p) => jc.progress(p),
      { from: 10, to: 55, expectedMs: 20_000 },
      () => projectCutout(jc, job.userId, project.id, fileKey),
    );
    // A merge queued before the cut-out was checked (an API client that skipped the check) stops here when it
    // needs review: failing for good releases the hold, so nothing is spent on it (decision 214).
    const checked = await projectsRepository.findById(db, project.id);
    if (
      checked?.cutout_file_key === fileKey &&
      cutoutAwaitsReview({ verdict: checked.cutout_verdict, acceptedAt: checked.cutout_accepted_at })
    ) {
      throw new PermanentJobError(MESSAGES.hookPacks.cutoutNeedsReview);
    }
    await jc.progress(
      60,
      realistic ? 'Placing the product in the actor’s hand (photoreal)' : 'Placing the product in the actor’s hand',
    );
    const outPath = path.join(jc.workDir, 'merged.png');
    await withProviderErrors(async () => {
      // Realistic: the image edit gets a real-looking person, never a catalogue drawing (made once, then kept).
      // Draft: a catalogue actor the user made photoreal (decision 216) gets the cut-out laid on that still, as its
      // videos animate it.
      const photo =
        realistic && avatar.catalogue_actor_id
          ? await realisticCatalogueActor(jc, job.userId, avatar.catalogue_actor_id)
          : avatar.catalogue_actor_id
            ? ((await localLook(jc, job.userId, avatar))?.photo?.path ?? null)
            : null;
      const actorPath = photo ?? path.join(jc.workDir, `actor${path.extname(avatar.image_key)}`);
      if (!photo) await jc.app.files.toLocalFile(avatar.image_key, actorPath);
      await jc.app.media.compositeProduct({
        actorPath,
        productPath: cutoutPath,
        placement,
        outPath,
        signal: jc.signal,
        // Catalogue actors are drawn by the engine: redrawn holding the product rather than pasted over (Draft).
        actor: avatar.catalogue_actor_id && !photo ? { catalogueActorId: avatar.catalogue_actor_id } : null,
        quality: realistic ? 'realistic' : 'draft',
        onUsage: (usage) => jc.recordUsage(usage),
      });
    });
    const mergedKey = jc.outputKey(realistic ? REALISTIC_MERGE_FILE : 'merged.png');
    await jc.app.files.putFile(mergedKey, outPath, 'image/png');
    return { result: { mergedKey }, logLine: 'Product placed' };
  },
  // The image lives under the job's outputs, which a job that fails for good loses: "merged" only with success.
  async commit(trx, job, outcome) {
    const merged = outcome.result?.mergedKey;
    if (!merged) throw new Error('The merge finished without its image');
    await projectsRepository.finishMergesOfJob(trx, job.id, { merged });
  },
  onGaveUp: (trx, job) => projectsRepository.finishMergesOfJob(trx, job.id, 'failed'),
});

/**
 * check-cutout (POST /merge/cutout-check/{projectId}): makes the project's product cut-out, checks and cleans its
 * matte and stores the check on the project, before any merge is paid for (decision 214). Free; a re-run reuses
 * the checked cut-out.
 */
export const checkCutoutJob = defineJob({
  name: 'check-cutout',
  lane: 'render',
  payload: z.object({ projectId: id, fileKey: z.string() }),
  async handler(job, jc) {
    const { projectId, fileKey } = job.payload;
    const project = await projectsRepository.findOwned(jc.app.db.kysely, job.userId, projectId);
    if (project?.file_key !== fileKey) throw new PermanentJobError('The project has another product image now');
    await jc.progress(5, 'Cutting the product out of its photo');
    await withEstimatedProgress(
      (p) => jc.progress(p),
      { from: 5, to: 95, expectedMs: 20_000 },
      () => projectCutout(jc, job.userId, projectId, fileKey),
    );
    const checked = await projectsRepository.findById(jc.app.db.kysely, projectId);
    const verdict = checked?.cutout_file_key === fileKey ? checked.cutout_verdict : null;
    return { result: { verdict }, logLine: `Cut-out checked: ${verdict ?? 'unknown'}` };
  },
});
