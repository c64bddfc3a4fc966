import { INSUFFICIENT_CREDITS, MESSAGES, VALIDATION, VideoQuality } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { notFound, unprocessable } from '../../errors.ts';
import { createJob, newBatchId, submitJobs } from '../jobs/index.ts';
import { renderProjectVideoJob } from './jobs.ts';
import {
  assertRealisticActor,
  assertRealisticAvailable,
  assertSpeechFitsAvatar,
  extraAspectsOf,
  projectSpeechSeconds,
  projectVideoCredits,
  type PricedProject,
} from '../video/index.ts';

/** POST /jobs/{projectId}/queue: one render of the project in its quality, paid with that video's price. */
export async function queueProjectVideo(ctx: AppContext, userId: number, projectId: number): Promise<{ id: number }> {
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const row = await projectsRepository.findOwned(trx, userId, projectId);
    if (!row) throw notFound();
    // A script is required (docs/product.md#rules): without one the render has nothing to say (and would only fail).
    if (!row.script.trim()) throw unprocessable(VALIDATION.scriptRequired);
    const quality = VideoQuality.catch('draft').parse(row.render_quality);
    const priced: PricedProject = {
      script: row.script,
      voice_speed: row.voice_speed ?? 1,
      voice_source: row.voice_source,
      voice_over_duration_sec: row.voice_over_duration_sec ?? null,
    };
    if (quality === 'realistic') {
      assertRealisticAvailable(ctx);
      assertSpeechFitsAvatar(ctx, projectSpeechSeconds(priced));
    }
    // The render features the first chosen actor (render-project-video); the card and file name say who. Without
    // one there is nobody to present the product: the editor keeps Generate disabled, and so does the server.
    const chosen = (await projectsRepository.charactersOf(trx, [projectId])).find((c) => c.selected);
    if (!chosen) {
      throw unprocessable(quality === 'realistic' ? MESSAGES.realistic.needsActor : VALIDATION.selectOneActor);
    }
    if (quality === 'realistic') assertRealisticActor(ctx, chosen);
    const id = await createJob(trx, renderProjectVideoJob, {
      labels: { actorName: chosen.name ?? `Actor ${chosen.avatar_id}` },
      userId,
      payload: { projectId, quality, aspects: extraAspectsOf(row.aspects) },
      projectName: row.name,
      projectId,
      price: 'video',
      credits: projectVideoCredits(ctx, quality, priced),
      insufficientMessage: INSUFFICIENT_CREDITS.videos,
      batchId: newBatchId(),
    });
    return { jobIds: [id] };
  });
  return { id: jobIds[0]! };
}
