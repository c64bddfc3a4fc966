import path from 'node:path';
import { MESSAGES } from '@hookreel/contracts';
import { hookPacksRepository as repo } from '../../db/repositories/hook-packs.ts';
import { packFilePrefix } from '../../services/hook-packs.ts';
import type { JobHandler } from '../registry.ts';
import { ensureCutout, media, idList, loadPack, shortHash } from './hook-common.ts';
import { withEstimatedProgress } from '../estimated-progress.ts';

/**
 * generate-preview: composites the product cut-out into each preview's character at its placement.
 * Payload: { hookPackId, previewIds, rerenderCharacterIds? } — the latter after a 'person' regenerate, whose
 * character got a new seed and is rendered again first. Re-runs redo only what is missing.
 */
export const generateHookPreview: JobHandler = async (job, jc) => {
  const pack = await loadPack(job, jc);
  const db = jc.app.db.kysely;
  const previewIds = idList(job.payload.previewIds);
  await jc.progress(5, 'Preparing the product');
  const { cutoutPath } = await withEstimatedProgress(
    (p) => jc.progress(p),
    { from: 5, to: 10, expectedMs: 20_000 },
    () => ensureCutout(jc.app, pack, jc),
  );

  for (const c of await repo.charactersByIds(db, pack.id, idList(job.payload.rerenderCharacterIds))) {
    if (c.status === 'ready') continue;
    const out = path.join(jc.workDir, `character-${c.id}.png`);
    await media.renderActor({ seed: c.seed, description: c.prompt, outPath: out, signal: jc.signal });
    const key = `${packFilePrefix(pack)}/characters/${c.id}-${shortHash(c.seed)}.png`;
    await jc.app.files.putFile(key, out, 'image/png');
    await repo.updateCharacters(db, [c.id], { image_key: key, status: 'ready' });
    await jc.log('New person generated');
  }

  const previews = (await repo.previewsByIds(db, previewIds)).filter((p) => p.hook_pack_id === pack.id);
  let done = 0;
  for (const p of previews) {
    // A newer request took this preview over; it renders there, not here.
    if (p.job_id !== null && p.job_id !== job.id) continue;
    const c = await repo.findCharacter(db, p.generated_character_id);
    if (!c?.image_key) {
      await repo.updatePreviews(db, [p.id], { errors: MESSAGES.hookPacks.characterNotFound });
      continue;
    }
    const actorPath = path.join(jc.workDir, `actor-${c.id}.png`);
    await jc.app.files.toLocalFile(c.image_key, actorPath);
    const placement = {
      position_x: p.position_x ?? 0,
      position_y: p.position_y ?? 0,
      scale: p.scale ?? 0.3,
      rotation: p.rotation ?? 0,
    };
    const out = path.join(jc.workDir, `preview-${p.id}.png`);
    await media.compositeProduct({
      actorPath,
      productPath: cutoutPath,
      placement,
      outPath: out,
      signal: jc.signal,
      actor: { seed: c.seed, description: c.prompt },
    });
    const key = `${packFilePrefix(pack)}/previews/${p.id}-${shortHash(`${c.seed}|${JSON.stringify(placement)}|${pack.cutout_key ?? ''}`)}.png`;
    await jc.app.files.putFile(key, out, 'image/png');
    await repo.updatePreviews(db, [p.id], { image_key: key, errors: null });
    done++;
    await jc.progress(10 + (done / previews.length) * 88, `Preview ${done} of ${previews.length} ready`);
  }
  return { result: { preview_ids: previewIds }, logLine: 'Previews ready' };
};

/** Previews this job still owed get the error message, so the review step stops waiting for them. */
generateHookPreview.onGaveUp = async (trx, job) => {
  const left = (await repo.previewsByIds(trx, idList(job.payload.previewIds))).filter(
    (p) => !p.image_key && p.job_id === job.id,
  );
  await repo.updatePreviews(
    trx,
    left.map((p) => p.id),
    { errors: MESSAGES.hookPacks.previewImagesFailed },
  );
};
