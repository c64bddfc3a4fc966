import { CutoutVerdict, MESSAGES, type CutoutCheck } from '@hookreel/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository as repo, type HookPackRow } from '../../db/repositories/hook-packs.ts';
import { conflict, notFound } from '../../errors.ts';

/**
 * The check of a pack's product cut-out (docs/decisions/214-a-cut-out-is-checked-before-it-is-spent-on.md): what
 * the API shows, the rule that a needs-review cut-out is not spent on until the user accepts it, and the
 * acceptance itself.
 */

const Notes = z.object({ fixed: z.array(z.string()), reasons: z.array(z.string()) });

export function cutoutCheckOf(
  r: Pick<HookPackRow, 'cutout_key' | 'cutout_verdict' | 'cutout_notes' | 'cutout_accepted_at'>,
): CutoutCheck | null {
  const verdict = CutoutVerdict.safeParse(r.cutout_verdict);
  if (!r.cutout_key || !verdict.success) return null;
  const notes = Notes.safeParse(r.cutout_notes ? JSON.parse(r.cutout_notes) : null);
  return {
    verdict: verdict.data,
    fixed: notes.success ? notes.data.fixed : [],
    reasons: notes.success ? notes.data.reasons : [],
    cutout_url: r.cutout_key,
    accepted: r.cutout_accepted_at !== null,
  };
}

/** Before a paid step that uses the product: a needs-review cut-out the user has not accepted stops it (409). */
export function assertCutoutUsable(pack: HookPackRow): void {
  if (pack.cutout_verdict === 'needs-review' && !pack.cutout_accepted_at) {
    throw conflict(MESSAGES.hookPacks.cutoutNeedsReview);
  }
}

/** POST /hooks/{id}/accept-cutout: records that the user uses the needs-review cut-out as it is. */
export async function recordCutoutAccepted(ctx: AppContext, userId: number, packId: number): Promise<void> {
  const pack = await repo.findOwned(ctx.db.kysely, userId, packId);
  if (!pack) throw notFound('Hook pack not found');
  if (pack.cutout_verdict !== 'needs-review' || !pack.cutout_key)
    throw conflict(MESSAGES.hookPacks.cutoutNothingToAccept);
  if (!pack.cutout_accepted_at) {
    await repo.update(ctx.db.kysely, packId, { cutout_accepted_at: new Date().toISOString() });
  }
}
