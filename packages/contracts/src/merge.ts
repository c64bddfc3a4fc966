import { z } from 'zod';
import { CANVAS } from './constants.ts';

const SCALE_RANGE = `Scale must be between ${CANVAS.productScaleMin} and ${CANVAS.productScaleMax}`;
const ROTATION_RANGE = 'Rotation must be between -360 and 360 degrees';
/**
 * The product's placement on a character, one range for every call that takes one (the merge, the hook-pack
 * preview editor): out-of-range values are refused (422), never silently clamped.
 */
export const MaskPlacement = z.object({
  position_x: z.number({ error: 'position_x must be a number' }).finite(),
  position_y: z.number({ error: 'position_y must be a number' }).finite(),
  scale: z
    .number({ error: SCALE_RANGE })
    .min(CANVAS.productScaleMin, SCALE_RANGE)
    .max(CANVAS.productScaleMax, SCALE_RANGE),
  rotation: z.number({ error: ROTATION_RANGE }).min(-360, ROTATION_RANGE).max(360, ROTATION_RANGE),
});
export type MaskPlacement = z.infer<typeof MaskPlacement>;

/** POST /merge/single multipart text fields; mask_data is JSON text of a MaskPlacement. */
export const MergeSingleFields = z.object({
  project_id: z.coerce.number().int().positive(),
  character_id: z.coerce.number().int().positive(),
  mask_data: z
    .string()
    .max(4096)
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'mask_data must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(MaskPlacement),
});

export const MergeSingleResponse = z.object({ job_id: z.number().int(), status: z.string() });

export const AvatarWithStatus = z.object({
  avatar_id: z.number().int(),
  status: z.enum(['not_merged', 'merging', 'merged', 'failed']),
  merged_url: z.string().nullable(),
  job_id: z.number().int().nullable(),
  progress: z.number(),
  /**
   * Seconds until a merging actor is done, from this installation's recent merges (null when it is not merging or
   * nothing has been measured yet; the screen then says the usual figure).
   */
  eta_seconds: z.number().int().nullable().default(null),
  placement: MaskPlacement.nullable(),
});
export type AvatarWithStatus = z.infer<typeof AvatarWithStatus>;

export const MergeResult = z.object({ total_jobs: z.number().int() });
export type MergeResult = z.infer<typeof MergeResult>;

/** POST /merge/cutout-check/{projectId}: the free job that makes and checks the product cut-out (decision 214). */
export const CutoutCheckJobResponse = z.object({ job_id: z.number().int() });
export type CutoutCheckJobResponse = z.infer<typeof CutoutCheckJobResponse>;
