import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository as repo, type HookPackRow } from '../../db/repositories/hook-packs.ts';
import { packFilePrefix } from '../../services/hook-packs.ts';
import { PermanentJobError, type ClaimedJob, type JobContext } from '../registry.ts';
import { engineMedia, type Media } from '../media.ts';

/** The media engine every handler uses (one seam, so a remote engine can be swapped in). */
export const media: Media = engineMedia;

/** The pack the job is about, reloaded; a pack deleted since queueing fails the job for good. */
export const packIdOf = (job: ClaimedJob): number => Number(job.payload.hookPackId ?? job.hookPackId);

export async function loadPack(job: ClaimedJob, jc: JobContext): Promise<HookPackRow> {
  const id = packIdOf(job);
  if (!Number.isSafeInteger(id)) throw new PermanentJobError('The job has no hook pack');
  const pack = await repo.findById(jc.app.db.kysely, id);
  if (!pack || pack.user_id !== job.userId) throw new PermanentJobError('The hook pack no longer exists');
  return pack;
}

export const idList = (v: unknown): number[] =>
  Array.isArray(v) ? v.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : [];

export const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);

/**
 * The pack's product cut-out on local disk, making it (cut-out + analysis, stored on the pack) if no job has
 * yet. Used by process-product and by previews queued before the analysis ran.
 */
export async function ensureCutout(
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
  const out = await media.cutoutProduct({
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
    await repo.update(app.db.kysely, pack.id, {
      cutout_key: cutoutKey,
      mask_key: maskKey,
      detected_shape: out.shape,
      detected_category: out.category,
    });
  }
  return { cutoutPath: out.cutoutPath, shape: out.shape, category: out.category };
}
