import { hookPacksRepository as repo } from '../../db/repositories/hook-packs.ts';
import { variantFileKey } from '../../services/hook-packs.ts';
import { isOnFreeTrial } from '../../services/users.ts';
import { PermanentJobError, type JobHandler } from '../registry.ts';
import { ensureCutout, media, loadPack } from './hook-common.ts';

/**
 * render-hook-video: one video of a hook pack. Payload: { hookPackId, variantIndex }. The actor is the
 * character's procedural seed, the product is composited at the approved preview's placement, the hook line is
 * spoken and shown on screen with captions. Outputs go to deterministic keys
 * (users/<uid>/hook-packs/<packId>-<token>/variant-<n>.mp4|jpg|srt|vtt): a retry overwrites them.
 */
export const renderHookVideo: JobHandler = async (job, jc) => {
  const pack = await loadPack(job, jc);
  const db = jc.app.db.kysely;
  const index = Number(job.payload.variantIndex ?? job.variantIndex);
  const variant = Number.isSafeInteger(index) ? await repo.findVariant(db, pack.id, index) : null;
  if (!variant) throw new PermanentJobError('This video variant no longer exists');
  const character = await repo.findCharacter(db, variant.generated_character_id);
  if (!character) throw new PermanentJobError('The character of this video no longer exists');
  const preview = await repo.findPreviewOfCharacter(db, pack.id, character.id);

  await jc.progress(3, `Video #${index}: "${variant.hook_text}"`);
  const cutout = pack.product_key ? (await ensureCutout(jc.app, pack, jc)).cutoutPath : null;
  const placement =
    preview && preview.position_x !== null && preview.position_y !== null
      ? {
          position_x: preview.position_x,
          position_y: preview.position_y,
          scale: preview.scale ?? 0.3,
          rotation: preview.rotation ?? 0,
        }
      : null;

  let last = 0;
  const out = await media.renderHookVideo({
    actorSeed: character.seed,
    actorDescription: character.prompt,
    productCutoutPath: cutout,
    placement,
    hookText: variant.hook_text,
    language: pack.language,
    accent: pack.accent,
    watermark: await isOnFreeTrial(jc.app, job.userId),
    outDir: jc.workDir,
    signal: jc.signal,
    onProgress: (fraction, message) => {
      const pct = 5 + fraction * 85;
      if (pct - last >= 5) {
        last = pct;
        void jc.progress(pct, message).catch(() => undefined);
      }
    },
  });

  await jc.progress(92, 'Saving the video');
  const videoKey = variantFileKey(pack, index, 'mp4');
  await jc.app.files.putFile(videoKey, out.videoPath, 'video/mp4');
  let posterKey: string | null = null;
  if (out.posterPath) {
    posterKey = variantFileKey(pack, index, 'jpg');
    await jc.app.files.putFile(posterKey, out.posterPath, 'image/jpeg');
  }
  if (out.srtPath) await jc.app.files.putFile(variantFileKey(pack, index, 'srt'), out.srtPath, 'application/x-subrip');
  if (out.vttPath) await jc.app.files.putFile(variantFileKey(pack, index, 'vtt'), out.vttPath, 'text/vtt');

  // This job is not marked completed until we return; the others may already be. The read paths reconcile too,
  // so two last videos finishing together still move the pack to videos_ready.
  const others = (await repo.variantsWithJobs(db, pack.id)).filter((v) => v.job_id !== job.id);
  if (others.every((v) => v.job?.status === 'completed')) {
    await repo.transition(db, pack.id, 'generating_videos', 'videos_ready');
  }
  return { videoKey, posterKey, result: { hook_pack_id: pack.id, variant_index: index }, logLine: 'Video ready' };
};
