import type { TalkingPreview } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { notFound } from '../../errors.ts';
import { encodePayload } from '../../jobs/definition.ts';
import { createJob, submitJobs } from '../jobs/index.ts';
import { renderCreatorPreviewJob, talkingPreviewKey } from './jobs.ts';

/**
 * Catalogue previews known to be stored, per file store: every listing of the library would otherwise ask the
 * store (a bucket: one request per actor) about the same dozen files. Only catalogue files are remembered: they
 * are never deleted, while a creator's preview goes with them.
 */
const storedCatalogue = new WeakMap<AppContext['files'], Set<string>>();

/** The key of an actor's talking preview when it is stored (decisions 207, 219), else null. */
export async function storedTalkingPreview(ctx: Pick<AppContext, 'files'>, pictureKey: string): Promise<string | null> {
  const key = talkingPreviewKey(pictureKey);
  const shared = pictureKey.startsWith('catalogue/');
  const known = storedCatalogue.get(ctx.files) ?? new Set<string>();
  if (shared && known.has(key)) return key;
  if (!(await ctx.files.exists(key).catch(() => false))) return null;
  if (shared) storedCatalogue.set(ctx.files, known.add(key));
  return key;
}

/**
 * POST /avatars/{id}/talking-preview: the preview of an actor the user can see, or that it is being made. The
 * first ask queues its render (free, one at a time per actor); a creator's preview that failed is tried again.
 */
export async function requestTalkingPreview(
  ctx: AppContext,
  userId: number,
  avatarId: number,
): Promise<TalkingPreview> {
  const avatar = await avatarsRepository.findVisible(ctx.db.kysely, userId, avatarId);
  if (!avatar) throw notFound();
  const stored = await storedTalkingPreview(ctx, avatar.image_key);
  if (stored) return { status: 'ready', preview_url: stored };
  const payload = { avatarId: avatar.id };
  const storedPayload = encodePayload(renderCreatorPreviewJob, payload);
  if (!(await jobsRepository.hasUnfinished(ctx.db.kysely, renderCreatorPreviewJob.name, storedPayload))) {
    await submitJobs(ctx, userId, async (trx) => ({
      jobIds: [
        await createJob(trx, renderCreatorPreviewJob, {
          userId,
          payload,
          projectName: `${avatar.name ?? `Actor ${avatar.id}`} · preview`,
        }),
      ],
    }));
  }
  return { status: 'rendering', preview_url: null };
}
