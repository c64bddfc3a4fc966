import { MESSAGES, type Project } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { projectsRepository, type ProjectRow } from '../../db/repositories/projects.ts';
import { conflict, unprocessable } from '../../errors.ts';
import { cutoutAwaitsReview } from '../actors/index.ts';
import { createJob, submitJobs } from '../jobs/index.ts';
import { getOwnedProject, getProject } from '../projects/index.ts';
import { checkCutoutJob } from './jobs.ts';

/**
 * The product cut-out's check for product in hand (decision 214): made by a free job before the first merge,
 * accepted by the owner when it needs review, and required before a merge is paid for.
 */

/** Whether the project's current product image has a needs-review cut-out nobody accepted. */
export const projectCutoutAwaitsReview = (p: ProjectRow): boolean =>
  p.file_key !== null &&
  p.cutout_file_key === p.file_key &&
  cutoutAwaitsReview({ verdict: p.cutout_verdict, acceptedAt: p.cutout_accepted_at });

/** POST /merge/cutout-check/{projectId}: queues the free job that makes and checks the cut-out. */
export async function checkProjectCutout(
  ctx: AppContext,
  userId: number,
  projectId: number,
): Promise<{ job_id: number }> {
  const project = await getOwnedProject(ctx, userId, projectId);
  if (!project.file_key) throw unprocessable(MESSAGES.hookPacks.productUrlNotFound);
  const fileKey = project.file_key;
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => ({
    jobIds: [
      await createJob(trx, checkCutoutJob, {
        userId,
        payload: { projectId: project.id, fileKey },
        projectName: project.name,
        projectId: project.id,
      }),
    ],
  }));
  return { job_id: jobIds[0]! };
}

/** POST /merge/accept-cutout/{projectId}: the owner uses the needs-review cut-out as it is. */
export async function acceptProjectCutout(ctx: AppContext, userId: number, projectId: number): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, projectId);
  if (!project.file_key || project.cutout_file_key !== project.file_key || project.cutout_verdict !== 'needs-review') {
    throw conflict(MESSAGES.hookPacks.cutoutNothingToAccept);
  }
  if (!project.cutout_accepted_at) {
    await projectsRepository.acceptCutout(
      ctx.db.kysely,
      userId,
      project.id,
      project.file_key,
      new Date().toISOString(),
    );
  }
  return getProject(ctx, userId, projectId);
}
