import type { JobHandler } from '../registry.ts';
import { ensureCutout, loadPack } from './hook-common.ts';
import { withEstimatedProgress } from '../estimated-progress.ts';

/**
 * process-product (POST /hooks/process-step1): background removal and analysis of the pack's product photo;
 * the detected shape and category land on the pack. Payload: { hookPackId }. Safe to re-run.
 */
export const processHookProduct: JobHandler = async (job, jc) => {
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
};
