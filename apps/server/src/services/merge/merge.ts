import {
  INSUFFICIENT_CREDITS,
  MESSAGES,
  VALIDATION,
  type AvatarWithStatus,
  type MaskPlacement,
  type MergeResult,
  VideoQuality,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import { storeUploadedImage, type UploadedFile } from '../../uploads/index.ts';
import { createJob, measureThroughput, newBatchId, remainingSeconds, submitJobs } from '../jobs/index.ts';
import { assertRealisticActor, assertRealisticAvailable, projectVideoCredits } from '../video/index.ts';
import { assertCoversRequest, toHundredths } from '../billing/index.ts';
import { mergeCharacterJob } from './jobs.ts';
import { projectCutoutAwaitsReview } from './cutout.ts';
import { renderProjectVideoJob } from '../projects/index.ts';
import { extraAspectsOf } from '../video/index.ts';
import { getOwnedProject } from '../projects/index.ts';
import { storedPlacement } from '../actors/index.ts';
import { readPayload } from '../../jobs/definition.ts';
import { z } from 'zod';

/**
 * Product in hand: put the project's product into an actor's hand (a merge job per actor), then render one
 * video per merged actor. The merge and each video reserve their credits with the job, in one transaction.
 */
export async function mergeSingle(
  ctx: AppContext,
  userId: number,
  input: { projectId: number; avatarId: number; placement: MaskPlacement; mask: UploadedFile | null },
): Promise<{ job_id: number; status: 'merging' }> {
  const project = await getOwnedProject(ctx, userId, input.projectId);
  if (!project.file_key) throw unprocessable(MESSAGES.hookPacks.productUrlNotFound);
  // A cut-out that needs review is not merged (paid) until the owner accepts it (decision 214).
  if (projectCutoutAwaitsReview(project)) throw conflict(MESSAGES.hookPacks.cutoutNeedsReview);
  const avatar = await avatarsRepository.findVisible(ctx.db.kysely, userId, input.avatarId);
  if (!avatar) throw notFound(MESSAGES.hookPacks.characterNotFound);
  // A Realistic project's merge is the photoreal one its videos will animate (the image-edit provider).
  const quality = VideoQuality.catch('draft').parse(project.render_quality);
  if (quality === 'realistic') {
    assertRealisticAvailable(ctx);
    assertRealisticActor(ctx, avatar);
  }
  // The editor's mask is kept beside the merge for reference; the composite itself uses the placement.
  const mask = input.mask ? await storeUploadedImage(ctx, { userId, area: 'masks', buffer: input.mask.buffer }) : null;
  const placement = JSON.stringify(input.placement);
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    // A second tab (or a retry with a fresh key) must not start and charge a second merge of the same actor
    // while the first is still waiting or running: 409, checked under the project's lock.
    await projectsRepository.lockForQueueing(trx, ctx.db.dialect, project.id);
    const active = await jobsRepository.activeForProject(trx, project.id, [mergeCharacterJob.name]);
    if (active.some((j) => payloadAvatar(j.payload) === avatar.id)) throw conflict(MESSAGES.server.mergeInProgress);
    const id = await createJob(trx, mergeCharacterJob, {
      userId,
      payload: { projectId: project.id, avatarId: avatar.id, maskKey: mask?.key ?? null, quality },
      projectName: project.name,
      projectId: project.id,
      price: 'merge',
      insufficientMessage: INSUFFICIENT_CREDITS.merge,
      maxAttempts: 2,
    });
    await projectsRepository.setMergeState(trx, project.id, avatar.id, {
      status: 'merging',
      jobId: id,
      maskPlacement: placement,
    });
    return { jobIds: [id] };
  });
  return { job_id: jobIds[0]!, status: 'merging' };
}

/** Merge state of every actor chosen for the project (GET /merge/avatars-with-status/{projectId}). */
export async function avatarsWithStatus(
  ctx: AppContext,
  userId: number,
  projectId: number,
): Promise<AvatarWithStatus[]> {
  const project = await getOwnedProject(ctx, userId, projectId);
  const chars = await projectsRepository.charactersOf(ctx.db.kysely, [project.id]);
  const jobIds = chars.map((c) => c.merge_job_id).filter((id): id is number => id !== null);
  const jobs = new Map((await jobsRepository.findManyByIds(ctx.db.kysely, userId, jobIds)).map((j) => [j.id, j]));
  // Time left comes from how long merges took here lately (decision 110), measured only while one is running.
  const merging = chars.some((c) => c.merge_status === 'merging');
  const perMerge = merging ? (await measureThroughput(ctx, [mergeCharacterJob.name])).secondsPerVideo : null;
  return chars.map((c) => {
    const job = c.merge_job_id !== null ? jobs.get(c.merge_job_id) : undefined;
    return {
      avatar_id: c.avatar_id,
      status: c.merge_status ?? 'not_merged',
      merged_url: c.merge_status === 'merged' ? c.merged_key : null,
      job_id: c.merge_job_id,
      progress: c.merge_status === 'merged' ? 100 : (job?.progress ?? 0),
      eta_seconds: c.merge_status === 'merging' ? remainingSeconds(perMerge, job?.progress ?? 0) : null,
      placement: storedPlacement(c.mask_placement),
    };
  });
}

/**
 * One video job per merged, selected actor of the project (POST /jobs/product-in-hand/{id}/queue-videos).
 * Needs a script and at least one merged actor; all the jobs and their holds commit together or not at all.
 */
export async function queueProductInHandVideos(
  ctx: AppContext,
  userId: number,
  projectId: number,
): Promise<MergeResult> {
  const project = await getOwnedProject(ctx, userId, projectId);
  if (!project.script.trim()) throw unprocessable(VALIDATION.scriptRequired);
  const merged = (await projectsRepository.charactersOf(ctx.db.kysely, [project.id])).filter(
    (c) => c.selected && c.merge_status === 'merged' && c.merged_key,
  );
  if (merged.length === 0) throw unprocessable(VALIDATION.selectOneActor);
  const quality = VideoQuality.catch('draft').parse(project.render_quality);
  if (quality === 'realistic') {
    assertRealisticAvailable(ctx);
    for (const c of merged) assertRealisticActor(ctx, c);
  }
  const credits = projectVideoCredits(ctx, quality, project);
  const batchId = newBatchId();
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    // The same videos queued again while the first ones wait or render (a second tab, a retry with a fresh key)
    // would be charged twice for one intent: 409, checked under the project's lock.
    await projectsRepository.lockForQueueing(trx, ctx.db.dialect, project.id);
    const active = await jobsRepository.activeForProject(trx, project.id, [renderProjectVideoJob.name]);
    const actors = new Set(merged.map((c) => c.avatar_id));
    if (active.some((j) => actors.has(payloadAvatar(j.payload) ?? -1))) {
      throw conflict(MESSAGES.server.projectVideosInProgress);
    }
    const price = toHundredths(credits) * merged.length;
    await assertCoversRequest(trx, ctx.db.dialect, userId, price, INSUFFICIENT_CREDITS.videos);
    const ids: number[] = [];
    for (const [i, c] of merged.entries()) {
      ids.push(
        await createJob(trx, renderProjectVideoJob, {
          userId,
          payload: { projectId: project.id, avatarId: c.avatar_id, quality, aspects: extraAspectsOf(project.aspects) },
          projectName: project.name,
          projectId: project.id,
          variantIndex: i,
          price: 'video',
          credits,
          batchId,
        }),
      );
    }
    return { jobIds: ids };
  });
  return { total_jobs: jobIds.length };
}

/** The actor a merge or product-in-hand render job is for (its payload's avatarId), if it names one. */
function payloadAvatar(payload: string): number | null {
  return readPayload(PayloadAvatar, { payload })?.avatarId ?? null;
}
const PayloadAvatar = z.object({ avatarId: z.number() });
