import { z } from 'zod';
import { CANVAS } from './constants.ts';

export const MaskPlacement = z.object({
  position_x: z.number().finite(),
  position_y: z.number().finite(),
  scale: z.number().min(CANVAS.productScaleMin).max(CANVAS.productScaleMax),
  rotation: z.number().min(-360).max(360),
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
  placement: MaskPlacement.nullable(),
});
export type AvatarWithStatus = z.infer<typeof AvatarWithStatus>;

export const MergeResult = z.object({ total_jobs: z.number().int() });
export type MergeResult = z.infer<typeof MergeResult>;
