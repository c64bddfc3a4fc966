import { CutoutVerdict, type CutoutCheck } from '@hookreel/contracts';
import { z } from 'zod';

/**
 * A product cut-out's check as stored beside a hook pack or a project (decision 214): its verdict, notes (JSON
 * `{ fixed, reasons }`) and acceptance, read back for the API and for the rule that a needs-review cut-out is not
 * spent on until accepted.
 */

const Notes = z.object({ fixed: z.array(z.string()), reasons: z.array(z.string()) });

export const cutoutNotes = (check: { fixed: string[]; reasons: string[] }): string =>
  JSON.stringify({ fixed: check.fixed, reasons: check.reasons });

export function cutoutCheckOf(stored: {
  cutoutUrl: string | null;
  verdict: string | null;
  notes: string | null;
  acceptedAt: string | null;
}): CutoutCheck | null {
  const verdict = CutoutVerdict.safeParse(stored.verdict);
  if (!stored.cutoutUrl || !verdict.success) return null;
  let notes: z.infer<typeof Notes> = { fixed: [], reasons: [] };
  try {
    notes = Notes.parse(JSON.parse(stored.notes ?? 'null'));
  } catch {
    // Notes are for people; a verdict without readable notes still stands.
  }
  return {
    verdict: verdict.data,
    fixed: notes.fixed,
    reasons: notes.reasons,
    cutout_url: stored.cutoutUrl,
    accepted: stored.acceptedAt !== null,
  };
}

/** Whether the cut-out waits for the user's look: needs-review and not accepted. */
export const cutoutAwaitsReview = (stored: { verdict: string | null; acceptedAt: string | null }): boolean =>
  stored.verdict === 'needs-review' && stored.acceptedAt === null;
