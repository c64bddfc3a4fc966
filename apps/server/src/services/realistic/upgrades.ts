import { INSUFFICIENT_CREDITS, MESSAGES, VALIDATION } from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository } from '../../db/repositories/hook-packs.ts';
import { jobsRepository, type JobRow } from '../../db/repositories/jobs.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import { readPayload } from '../../jobs/definition.ts';
import { renderHookVideoJob } from '../hook-packs/index.ts';
import { createJob, newBatchId, submitJobs, upgradeOf, renderQualityOf } from '../jobs/index.ts';
import { renderProjectVideoJob } from '../projects/index.ts';
import {
  assertInventedCharacters,
  assertRealisticActor,
  assertRealisticAvailable,
  assertSpeechFitsAvatar,
  packUpgradeCredits,
  projectSpeechSeconds,
  upgradeCredits,
} from '../video/index.ts';

/**
 * POST /jobs/{id}/make-realistic: the same video rendered again through the providers as a new job, holding only
 * the difference between the Realistic price and the Draft price paid. A project video keeps its project, actor,
 * placement and script; a hook-pack video keeps its pack, hook line, character and placement, and becomes the
 * pack's video once it is done (the draft stays among the jobs).
 */
export async function makeRealistic(ctx: AppContext, userId: number, jobId: number): Promise<{ id: number }> {
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const job = await jobsRepository.findOwned(trx, userId, jobId);
    if (!job) throw notFound(MESSAGES.jobs.notFound);
    if (job.status !== 'completed' || renderQualityOf(job) !== 'draft') throw conflict(MESSAGES.jobs.notUpgradable);
    if (job.name === renderHookVideoJob.name && job.hook_pack_id !== null) {
      return { jobIds: [await upgradePackVideo(ctx, trx, job, job.hook_pack_id)] };
    }
    if (job.name !== renderProjectVideoJob.name || job.project_id === null) {
      throw conflict(MESSAGES.jobs.notUpgradable);
    }
    const project = await projectsRepository.findOwned(trx, userId, job.project_id);
    if (!project) throw conflict(MESSAGES.jobs.notUpgradable);
    if (!project.script.trim()) throw unprocessable(VALIDATION.scriptRequired);
    // One upgrade of a draft at a time (two tabs would pay twice); once it is done or failed it may be asked again.
    const upgrades = await jobsRepository.ofProjects(trx, renderProjectVideoJob.name, [project.id]);
    if (upgrades.some((o) => upgradeOf(o) === job.id && (o.status === 'queued' || o.status === 'in_progress'))) {
      throw conflict(MESSAGES.jobs.upgradeUnderway);
    }
    assertRealisticAvailable(ctx);
    assertSpeechFitsAvatar(ctx, projectSpeechSeconds(project));
    const draft = readPayload(renderProjectVideoJob, job);
    if (!draft) throw conflict(MESSAGES.jobs.notUpgradable);
    // The actor the draft featured, or the project's first chosen one: gone since, nobody real is left to animate.
    const chars = await projectsRepository.charactersOf(trx, [project.id]);
    const actor = draft.avatarId ? chars.find((c) => c.avatar_id === draft.avatarId) : chars.find((c) => c.selected);
    if (!actor) throw unprocessable(MESSAGES.realistic.needsActor);
    assertRealisticActor(ctx, actor);
    const id = await createJob(trx, renderProjectVideoJob, {
      labels: { actorName: job.actor_name, variantLabel: job.variant_label, hookText: job.hook_text },
      userId,
      payload: {
        projectId: project.id,
        avatarId: draft.avatarId,
        quality: 'realistic',
        aspects: draft.aspects,
        upgradeOf: job.id,
      },
      projectName: project.name,
      projectId: project.id,
      variantIndex: job.variant_index,
      price: 'video',
      credits: upgradeCredits(ctx, project),
      insufficientMessage: INSUFFICIENT_CREDITS.videos,
      batchId: newBatchId(),
    });
    return { jobIds: [id] };
  });
  return { id: jobIds[0]! };
}

/**
 * "Make realistic" on a finished draft video of a hook pack: one upgrade per video at a time, and only of the
 * video the pack shows now (the pack's row is locked on PostgreSQL so two tabs cannot both pass the check).
 */
async function upgradePackVideo(
  ctx: AppContext,
  trx: Transaction<Database>,
  job: JobRow,
  packId: number,
): Promise<number> {
  await hookPacksRepository.lockForQueueing(trx, ctx.db.dialect, packId);
  const pack = await hookPacksRepository.findOwned(trx, job.user_id, packId);
  const index = job.variant_index;
  if (!pack || index === null) throw conflict(MESSAGES.jobs.notUpgradable);
  const others = await jobsRepository.unfailedOfPacks(trx, renderHookVideoJob.name, [packId]);
  if (others.some((o) => upgradeOf(o) === job.id)) throw conflict(MESSAGES.jobs.upgradeUnderway);
  const shown = await hookPacksRepository.variantJobIds(trx, [packId]);
  if (shown.get(`${packId}:${index}`) !== job.id) throw conflict(MESSAGES.jobs.upgradeOutdated);
  assertRealisticAvailable(ctx, 'hookPacks');
  const variant = await hookPacksRepository.findVariant(trx, packId, index);
  if (variant) await assertInventedCharacters(trx, packId, [variant.generated_character_id]);
  const draft = readPayload(renderHookVideoJob, job);
  if (!draft) throw conflict(MESSAGES.jobs.notUpgradable);
  return createJob(trx, renderHookVideoJob, {
    userId: job.user_id,
    // The upgrade keeps the frame shapes the draft was made in.
    payload: {
      hookPackId: packId,
      variantIndex: index,
      quality: 'realistic',
      upgradeOf: job.id,
      aspects: draft.aspects,
    },
    projectName: job.project_name,
    hookPackId: packId,
    variantIndex: index,
    labels: {
      actorName: job.actor_name,
      variantLabel: job.variant_label,
      hookText: job.hook_text,
      variantId: job.variant_id,
    },
    price: 'video',
    credits: packUpgradeCredits(ctx),
    insufficientMessage: INSUFFICIENT_CREDITS.videos,
    batchId: newBatchId(),
  });
}
