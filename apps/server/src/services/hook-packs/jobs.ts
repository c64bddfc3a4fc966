import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { rotatedBox, type VoiceStore } from '../../media/values.ts';
import type { HookVideoPhoto } from '../../media/port.ts';
import { Aspect, MESSAGES, VideoQuality, type Box } from '@hookreel/contracts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import { avatarFace, cutoutAwaitsReview, cutoutNotes, localLook } from '../actors/index.ts';
import type { Placement } from './placement.ts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository as repo, type HookPackRow } from '../../db/repositories/hook-packs.ts';
import { defineJob, PermanentJobError, type ClaimedJob, type JobContext } from '../../jobs/definition.ts';
import { withEstimatedProgress } from '../video/index.ts';
import { packFilePrefix, variantFileKey } from './files.ts';
import { qualityLine, storeAspects, storeQuality } from '../video/index.ts';
import { renderBrandLook } from '../video/index.ts';
import { localMusic, renderStyleOf } from '../video/index.ts';
import { isOnFreeTrial } from '../account/index.ts';
import { filesVoiceStore, withProviderErrors } from '../video/index.ts';

const id = z.number().int().positive();
const ids = z.array(id);

/**
 * process-product (POST /hooks/process-step1): background removal and analysis of the pack's product photo;
 * the detected shape and category land on the pack. Free, and safe to re-run.
 */
export const processProductJob = defineJob({
  name: 'process-product',
  lane: 'render',
  payload: z.object({ hookPackId: id, productKey: z.string() }),
  async handler(job, jc) {
    const pack = await loadPack(job, jc);
    await jc.progress(5, 'Removing the background');
    // The cut-out cannot report progress; the bar moves on an estimate so it does not sit at 5% for a minute.
    const out = await withEstimatedProgress(
      (p) => jc.progress(p),
      { from: 5, to: 90, expectedMs: 20_000 },
      () => ensureCutout(jc.app, { ...pack, cutout_key: null }, jc),
    );
    await jc.progress(95, 'Product analysed');
    return {
      result: { hook_pack_id: pack.id, detected_shape: out.shape, detected_category: out.category },
      logLine: `Detected: ${out.shape ?? 'unknown shape'}, ${out.category ?? 'unknown category'}`,
    };
  },
});

/** generate-characters: renders the pending characters' portraits; a re-run skips those already rendered. */
export const generateCharactersJob = defineJob({
  name: 'generate-characters',
  lane: 'render',
  payload: z.object({ hookPackId: id, characterIds: ids }),
  async handler(job, jc) {
    const pack = await loadPack(job, jc);
    const db = jc.app.db.kysely;
    const chars = await repo.charactersByIds(db, pack.id, job.payload.characterIds);
    let done = 0;
    for (const c of chars) {
      done++;
      if (c.status === 'ready' && c.image_key) continue;
      await renderCharacter(jc, pack, c);
      await jc.progress((done / chars.length) * 100, `Character ${done} of ${chars.length} ready`);
    }
    return { result: { character_ids: chars.map((c) => c.id) }, logLine: `${chars.length} characters ready` };
  },
  /** The characters still pending are marked failed, so the wizard stops waiting for them. */
  async onGaveUp(trx, job) {
    const left = (await repo.charactersByIds(trx, job.payload.hookPackId, job.payload.characterIds)).filter(
      (c) => c.status !== 'ready',
    );
    await repo.updateCharacters(
      trx,
      left.map((c) => c.id),
      { status: 'failed' },
    );
  },
});

/**
 * generate-preview: composites the product cut-out into each preview's character at its placement.
 * `rerenderCharacterIds` follows a 'person' regenerate, whose character got a new seed and is rendered again
 * first. Re-runs redo only what is missing.
 */
export const generatePreviewJob = defineJob({
  name: 'generate-preview',
  lane: 'render',
  payload: z.object({ hookPackId: id, previewIds: ids, rerenderCharacterIds: ids.optional() }),
  async handler(job, jc) {
    const pack = await loadPack(job, jc);
    const db = jc.app.db.kysely;
    const { previewIds, rerenderCharacterIds = [] } = job.payload;
    await jc.progress(5, 'Preparing the product');
    const { cutoutPath } = await withEstimatedProgress(
      (p) => jc.progress(p),
      { from: 5, to: 10, expectedMs: 20_000 },
      () => ensureCutout(jc.app, pack, jc),
    );
    // Previews queued before the analysis made the cut-out stop here when it needs review: failing for good
    // releases the hold, so nothing is spent on it (decision 214).
    const checked = await repo.findById(db, pack.id);
    if (checked && cutoutAwaitsReview({ verdict: checked.cutout_verdict, acceptedAt: checked.cutout_accepted_at })) {
      throw new PermanentJobError(MESSAGES.hookPacks.cutoutNeedsReview);
    }

    for (const c of await repo.charactersByIds(db, pack.id, rerenderCharacterIds)) {
      if (c.status === 'ready') continue;
      await renderCharacter(jc, pack, c);
      await jc.log('New person generated');
    }

    const previews = (await repo.previewsByIds(db, previewIds)).filter((p) => p.hook_pack_id === pack.id);
    let done = 0;
    for (const p of previews) {
      // A newer request took this preview over; it renders there, not here.
      if (p.job_id !== null && p.job_id !== job.id) continue;
      const c = await repo.findCharacter(db, p.generated_character_id);
      if (!c?.image_key) {
        await repo.updatePreviewOfJob(db, p.id, job.id, { errors: MESSAGES.hookPacks.characterNotFound });
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
      await jc.app.media.compositeProduct({
        actorPath,
        productPath: cutoutPath,
        placement,
        outPath: out,
        signal: jc.signal,
        // A creator's photo gets the cut-out laid on it; a drawn character is redrawn holding it.
        actor: c.avatar_id === null ? { seed: c.seed, description: c.prompt } : null,
      });
      const key = `${packFilePrefix(pack)}/previews/${p.id}-${shortHash(`${c.seed}|${JSON.stringify(placement)}|${pack.cutout_key ?? ''}`)}.png`;
      await jc.app.files.putFile(key, out, 'image/png');
      // Only while the preview is still this job's: a Regenerate may have taken it over while this attempt (or a
      // retry of it) composited, and its new picture must not be replaced by this older one.
      await repo.updatePreviewOfJob(db, p.id, job.id, { image_key: key, errors: null });
      done++;
      await jc.progress(10 + (done / previews.length) * 88, `Preview ${done} of ${previews.length} ready`);
    }
    return { result: { preview_ids: previewIds }, logLine: 'Previews ready' };
  },
  /** Previews this job still owed get the error message, so the review step stops waiting for them. */
  async onGaveUp(trx, job) {
    const left = (await repo.previewsByIds(trx, job.payload.previewIds)).filter(
      (p) => !p.image_key && p.job_id === job.id,
    );
    await repo.updatePreviews(
      trx,
      left.map((p) => p.id),
      { errors: MESSAGES.hookPacks.previewImagesFailed },
    );
  },
});

/**
 * render-hook-video: one video of a hook pack. The actor is the character's procedural seed, the product is
 * composited at the approved preview's placement, the hook line is spoken and shown on screen with captions.
 * Outputs go to deterministic keys (users/<uid>/hook-packs/<packId>-<token>/variant-<n>.mp4|jpg|srt|vtt): a
 * retry overwrites them.
 */
export const renderHookVideoJob = defineJob({
  name: 'render-hook-video',
  video: true,
  lane: 'render',
  payload: z.object({
    hookPackId: id,
    variantIndex: z.number().int().min(0),
    // Absent on jobs queued before Draft/Realistic existed, which were drafts.
    quality: VideoQuality.optional(),
    /** "Make realistic": the finished draft job of this video, which the pack's video becomes once this is done. */
    upgradeOf: id.optional(),
    // The frame shapes chosen when it was queued (absent on older jobs: 9:16 only).
    aspects: z.array(Aspect).optional(),
  }),
  async handler(job, jc) {
    const pack = await loadPack(job, jc);
    const realistic = job.payload.quality === 'realistic';
    const db = jc.app.db.kysely;
    const index = job.payload.variantIndex;
    const { upgradeOf } = job.payload;
    const variant = await repo.findVariant(db, pack.id, index);
    if (!variant) throw new PermanentJobError('This video variant no longer exists');
    // An upgrade renders the hook and actor the draft showed: if the pack was generated again since, the video
    // it would replace is another one, and the user is refunded instead.
    if (upgradeOf !== undefined && variant.job_id !== upgradeOf) {
      throw new PermanentJobError(MESSAGES.jobs.upgradeOutdated);
    }
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

    // One of the user's own creators: their photo talks through the engine's photo actor (decision 207).
    const photo =
      character.avatar_id === null
        ? null
        : await creatorStill(jc, job.userId, character.avatar_id, preview?.image_key ?? null, cutout, placement);
    if (photo && realistic) throw new PermanentJobError(MESSAGES.hookPacks.creatorRealistic);

    let last = 0;
    let voiceReused = false;
    const style = renderStyleOf(pack);
    const musicPath = await localMusic(jc, style.musicKey);
    const brand = await renderBrandLook(jc, job.userId, pack, { realPersonPhoto: photo !== null });
    const watermark = await isOnFreeTrial(jc.app, job.userId);
    const out = await withProviderErrors(() =>
      jc.app.media.renderHookVideo({
        actorSeed: character.seed,
        actorDescription: character.prompt,
        productCutoutPath: cutout,
        placement,
        photo,
        hookText: variant.hook_text,
        language: pack.language,
        accent: pack.accent,
        voiceId: style.voiceId,
        style: {
          captionStyle: style.captionStyle,
          // A matrix video has its own call to action; the 12-video pack uses the pack's.
          cta: variant.cta_text ?? style.cta,
          musicPath,
          aspects: job.payload.aspects ?? [],
          brand,
        },
        voiceSpeed: style.voiceSpeed,
        quality: realistic ? 'realistic' : 'draft',
        onUsage: (usage) => jc.recordUsage(usage),
        watermark,
        voiceStore: packVoiceStore(jc, pack),
        onVoiceReused: () => {
          voiceReused = true;
        },
        outDir: jc.workDir,
        signal: jc.signal,
        onProgress: (fraction, message) => {
          const pct = 5 + fraction * 85;
          if (pct - last >= 5) {
            last = pct;
            void jc.progress(pct, message).catch(() => undefined);
          }
        },
      }),
    );

    if (voiceReused) await jc.log('Voice reused from another video of this pack');
    await jc.progress(92, 'Saving the video');
    const tag = upgradeOf === undefined ? undefined : `realistic-${job.id}`;
    const videoKey = variantFileKey(pack, index, 'mp4', tag);
    await jc.app.files.putFile(videoKey, out.videoPath, 'video/mp4');
    let posterKey: string | null = null;
    if (out.posterPath) {
      posterKey = variantFileKey(pack, index, 'jpg', tag);
      await jc.app.files.putFile(posterKey, out.posterPath, 'image/jpeg');
    }
    if (out.srtPath)
      await jc.app.files.putFile(variantFileKey(pack, index, 'srt', tag), out.srtPath, 'application/x-subrip');
    if (out.vttPath) await jc.app.files.putFile(variantFileKey(pack, index, 'vtt', tag), out.vttPath, 'text/vtt');
    const quality = await storeQuality(jc.app.files, out, (name) => jc.outputKey(name), jc.workDir);
    const aspects = await storeAspects(jc.app.files, out.aspects, (name) => jc.outputKey(name), jc.workDir);
    return {
      videoKey,
      posterKey,
      result: {
        hook_pack_id: pack.id,
        variant_index: index,
        variant_id: variant.variant_id,
        duration_sec: out.durationSec ?? null,
        ...quality,
        ...(aspects.length ? { aspects } : {}),
        // What the video says of itself (decision 201), for the zip's manifest: drawn or generated characters are
        // no real person; an own creator's photo is (decision 207).
        real_photo: photo !== null,
        ai_label: brand.aiLabel === true,
      },
      logLine: qualityLine(quality),
    };
  },
  /**
   * The last video to complete moves the pack to videos_ready, in the transaction that marks it completed (so
   * this job's row already reads completed). Two finishing together may each miss the other: the read paths
   * reconcile (reconcileVideosReady).
   */
  async commit(trx, job) {
    // A finished upgrade becomes the pack's video (its list, zip and manifest); the draft stays among the jobs.
    if (job.payload.upgradeOf !== undefined) {
      await repo.replaceVariantJob(
        trx,
        job.payload.hookPackId,
        job.payload.variantIndex,
        job.payload.upgradeOf,
        job.id,
      );
    }
    const variants = await repo.variantsWithJobs(trx, job.payload.hookPackId);
    if (variants.every((v) => v.job?.status === 'completed')) {
      await repo.transition(trx, job.payload.hookPackId, 'generating_videos', 'videos_ready');
    }
  },
});

// Shared by the pack's jobs ---------------------------------------------------------------------------------

/** The pack the job is about, reloaded; a pack deleted since queueing fails the job for good. */
async function loadPack(job: ClaimedJob<{ hookPackId: number }>, jc: JobContext): Promise<HookPackRow> {
  const pack = await repo.findById(jc.app.db.kysely, job.payload.hookPackId);
  if (!pack || pack.user_id !== job.userId) throw new PermanentJobError('The hook pack no longer exists');
  return pack;
}

/**
 * The pack's spoken takes in its file storage (`<pack>/shared/voice-<key>.wav|json`), so every video of the pack
 * (another call to action, another actor with the same voice), on any worker, reuses a take instead of speaking it
 * again. The JSON is written last: a take without it is unfinished and is spoken again.
 */
function packVoiceStore(jc: JobContext, pack: HookPackRow): VoiceStore {
  return filesVoiceStore(jc, `${packFilePrefix(pack)}/shared`);
}

/**
 * The still an own creator's hook video animates (decision 207): the approved preview (their photo fitted into the
 * 576x1024 frame with the product laid on at the preview's placement), whose face points are carried over from the
 * upload's (decision 184), or the photo itself when no preview picture exists. A creator deleted since queueing
 * fails the job for good (its credits are released).
 */
async function creatorStill(
  jc: JobContext,
  userId: number,
  avatarId: number,
  previewKey: string | null,
  cutoutPath: string | null,
  placement: Placement | null,
): Promise<NonNullable<HookVideoPhoto>> {
  const avatar = await avatarsRepository.findOwn(jc.app.db.kysely, userId, avatarId);
  if (!avatar) throw new PermanentJobError('The creator of this video was deleted');
  const photoPath = path.join(jc.workDir, `creator-${avatar.id}${path.extname(avatar.image_key)}`);
  await jc.app.files.toLocalFile(avatar.image_key, photoPath);
  const gender = avatar.gender === 'male' ? 'male' : 'female';
  const face = avatarFace(avatar);
  // Their real mouth stills, when the user had them made (decision 216), in the upload's pixels as `face` is.
  const mouthStills = (await localLook(jc, userId, avatar))?.mouths ?? null;
  if (!previewKey || !(await jc.app.files.exists(previewKey))) {
    return { imagePath: photoPath, gender, face, faceSourcePath: null, productBox: null, mouthStills };
  }
  const imagePath = path.join(jc.workDir, `creator-${avatar.id}-holding.png`);
  await jc.app.files.toLocalFile(previewKey, imagePath);
  const productBox = cutoutPath && placement ? await placedProductBox(cutoutPath, placement) : null;
  return { imagePath, gender, face, faceSourcePath: face ? photoPath : null, productBox, mouthStills };
}

/**
 * Where the local composite put the product in the frame (so text keeps off it): the cut-out at `scale` of its own
 * pixels, centred at the placement and rotated, as packages/engine's compositeProduct lays it.
 */
async function placedProductBox(cutoutPath: string, p: Placement): Promise<Box | null> {
  const size = await pngSize(cutoutPath);
  if (!size) return null;
  return rotatedBox(p.position_x, p.position_y, size.width * p.scale, size.height * p.scale, p.rotation);
}

/** A PNG's pixel size from its header (IHDR), or null if the file is not a PNG. */
async function pngSize(file: string): Promise<{ width: number; height: number } | null> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(24);
    await handle.read(head, 0, 24, 0);
    if (head.readUInt32BE(0) !== 0x89504e47 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  } finally {
    await handle.close();
  }
}

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);

/** Renders a pending character's portrait from its seed and marks it ready. */
async function renderCharacter(
  jc: JobContext,
  pack: HookPackRow,
  c: { id: number; seed: string; prompt: string },
): Promise<void> {
  const out = path.join(jc.workDir, `character-${c.id}.png`);
  await jc.app.media.renderActor({ seed: c.seed, description: c.prompt, outPath: out, signal: jc.signal });
  const key = `${packFilePrefix(pack)}/characters/${c.id}-${shortHash(c.seed)}.png`;
  await jc.app.files.putFile(key, out, 'image/png');
  await repo.updateCharacters(jc.app.db.kysely, [c.id], { image_key: key, status: 'ready' });
}

/**
 * The pack's product cut-out on local disk, making it (cut-out + analysis, stored on the pack) if no job has
 * yet. Used by process-product and by previews and videos queued before the analysis ran.
 */
async function ensureCutout(
  app: AppContext,
  pack: HookPackRow,
  jc: Pick<JobContext, 'workDir' | 'signal'>,
): Promise<{ cutoutPath: string; shape: string | null; category: string | null }> {
  if (!pack.product_key) throw new PermanentJobError('The hook pack has no product image');
  const local = path.join(jc.workDir, 'cutout.png');
  if (pack.cutout_key && (await app.files.exists(pack.cutout_key))) {
    await app.files.toLocalFile(pack.cutout_key, local);
    return { cutoutPath: local, shape: pack.detected_shape, category: pack.detected_category };
  }
  const productPath = path.join(jc.workDir, `product${path.extname(pack.product_key)}`);
  await app.files.toLocalFile(pack.product_key, productPath);
  const out = await app.media.cutoutProduct({
    productPath,
    outDir: path.join(jc.workDir, 'cutout'),
    signal: jc.signal,
  });
  const tag = shortHash(pack.product_key);
  const cutoutKey = `${packFilePrefix(pack)}/product-${tag}-cutout.png`;
  const maskKey = `${packFilePrefix(pack)}/product-${tag}-mask.png`;
  await app.files.putFile(cutoutKey, out.cutoutPath, 'image/png');
  await app.files.putFile(maskKey, out.maskPath, 'image/png');
  // Only if the product is still the one we cut out (a new upload in between wins).
  const current = await repo.findById(app.db.kysely, pack.id);
  if (current?.product_key === pack.product_key) {
    // A new cut-out is a new check: an earlier acceptance was of another cut-out (decision 214).
    await repo.update(app.db.kysely, pack.id, {
      cutout_key: cutoutKey,
      mask_key: maskKey,
      detected_shape: out.shape,
      detected_category: out.category,
      cutout_verdict: out.check.verdict,
      cutout_notes: cutoutNotes(out.check),
      cutout_accepted_at: null,
    });
  }
  return { cutoutPath: out.cutoutPath, shape: out.shape, category: out.category };
}
