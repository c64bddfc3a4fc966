import { MESSAGES, type CutoutCheck } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository as repo, type HookPackRow } from '../../db/repositories/hook-packs.ts';
import { conflict, notFound } from '../../errors.ts';
import { cutoutAwaitsReview, cutoutCheckOf } from '../actors/index.ts';

/**
 * A pack's product cut-out check (docs/decisions/214-a-cut-out-is-checked-before-it-is-spent-on.md): what the
 * API shows, the rule that a needs-review cut-out is not spent on until the user accepts it, and the acceptance.
 */

export const packCutoutCheck = (
  r: Pick<HookPackRow, 'cutout_key' | 'cutout_verdict' | 'cutout_notes' | 'cutout_accepted_at'>,
): CutoutCheck | null =>
  cutoutCheckOf({
    cutoutUrl: r.cutout_key,
    verdict: r.cutout_verdict,
    notes: r.cutout_notes,
    acceptedAt: r.cutout_accepted_at,
  });

/** Before a paid step that uses the product: a needs-review cut-out the user has not accepted stops it (409). */
export function assertCutoutUsable(pack: HookPackRow): void {
  if (cutoutAwaitsReview({ verdict: pack.cutout_verdict, acceptedAt: pack.cutout_accepted_at })) {
    throw conflict(MESSAGES.hookPacks.cutoutNeedsReview);
  }
}

/** POST /hooks/{id}/accept-cutout: records that the user uses the needs-review cut-out as it is. */
export async function recordCutoutAccepted(ctx: AppContext, userId: number, packId: number): Promise<void> {
  const pack = await repo.findOwned(ctx.db.kysely, userId, packId);
  if (!pack) throw notFound('Hook pack not found');
  if (pack.cutout_verdict !== 'needs-review' || !pack.cutout_key) {
    throw conflict(MESSAGES.hookPacks.cutoutNothingToAccept);
  }
  if (!pack.cutout_accepted_at) {
    await repo.update(ctx.db.kysely, packId, { cutout_accepted_at: new Date().toISOString() });
  }
}
