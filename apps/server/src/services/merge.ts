import {
  INSUFFICIENT_CREDITS,
  MESSAGES,
  VALIDATION,
  type AvatarWithStatus,
  type MaskPlacement,
  type MergeResult,
} from '@hookreel/contracts';
import type { AppContext } from '../context.ts';
import { avatarsRepository } from '../db/repositories/avatars.ts';
import { projectsRepository } from '../db/repositories/projects.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';
import { notFound, unprocessable } from '../errors.ts';
import { storeUploadedImage, type UploadedFile } from '../uploads/index.ts';
import { createJob, newBatchId, submitJobs } from './jobs.ts';
import { mergeCharacterJob } from './merge.jobs.ts';
import { renderProjectVideoJob } from './projects.jobs.ts';
import { getOwnedProject } from './projects.ts';

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
  const avatar = await avatarsRepository.findVisible(ctx.db.kysely, userId, input.avatarId);
  if (!avatar) throw notFound(MESSAGES.hookPacks.characterNotFound);
  // The editor's mask is kept beside the merge for reference; the composite itself uses the placement.
  const mask = input.mask ? await storeUploadedImage(ctx, { userId, area: 'masks', buffer: input.mask.buffer }) : null;
  const placement = JSON.stringify(input.placement);
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const id = await createJob(trx, mergeCharacterJob, {
      userId,
      payload: { projectId: project.id, avatarId: avatar.id, maskKey: mask?.key ?? null },
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
  return chars.map((c) => {
    const job = c.merge_job_id !== null ? jobs.get(c.merge_job_id) : undefined;
    return {
      avatar_id: c.avatar_id,
      status: c.merge_status ?? 'not_merged',
      merged_url: c.merge_status === 'merged' ? c.merged_key : null,
      job_id: c.merge_job_id,
      progress: c.merge_status === 'merged' ? 100 : (job?.progress ?? 0),
      placement: c.mask_placement ? (JSON.parse(c.mask_placement) as MaskPlacement) : null,
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
  const batchId = newBatchId();
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const ids: number[] = [];
    for (const [i, c] of merged.entries()) {
      ids.push(
        await createJob(trx, renderProjectVideoJob, {
          userId,
          payload: { projectId: project.id, avatarId: c.avatar_id },
          projectName: project.name,
          projectId: project.id,
          variantIndex: i,
          price: 'video',
          batchId,
        }),
      );
    }
    return { jobIds: ids };
  });
  return { total_jobs: jobIds.length };
}
