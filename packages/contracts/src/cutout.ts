import { z } from 'zod';

/**
 * What the check of a product's cut-out found (docs/decisions/214-a-cut-out-is-checked-before-it-is-spent-on.md):
 * 'clean' as made, 'cleaned' after the fixes listed, or 'needs-review' for the reasons listed, shown with a
 * preview of the cut-out before anything that uses it is paid for.
 */
export const CutoutVerdict = z.enum(['clean', 'cleaned', 'needs-review']);
export type CutoutVerdict = z.infer<typeof CutoutVerdict>;

export const CutoutCheck = z.object({
  verdict: CutoutVerdict,
  /** What cleaning fixed, e.g. "removed 2 bars along the photo's edges". */
  fixed: z.array(z.string()),
  /** Why the cut-out needs a look; empty unless needs-review. */
  reasons: z.array(z.string()),
  /** The cut-out (a PNG with transparency) as stored: the one every render uses. */
  cutout_url: z.string(),
  /** The user chose to use a needs-review cut-out as it is. */
  accepted: z.boolean(),
});
export type CutoutCheck = z.infer<typeof CutoutCheck>;
