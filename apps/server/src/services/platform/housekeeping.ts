import type { AppContext } from '../../context.ts';
import { idempotencyRepository } from '../../db/repositories/idempotency.ts';
import { oneTimeCodesRepository } from '../../db/repositories/one-time-codes.ts';
import { refreshTokensRepository } from '../../db/repositories/refresh-tokens.ts';

/**
 * How long a stored Idempotency-Key answers replays. Clients resend within seconds (decision 050); a day covers
 * any retry worth answering, after which the key is forgotten and the table stays small.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
export const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;

export interface HousekeepingResult {
  idempotencyKeys: number;
  refreshTokens: number;
  oneTimeCodes: number;
}

/** Deletes what has outlived its use: replay records older than a day refresh tokens and one-time codes past their expiry. */
export async function runHousekeeping(ctx: AppContext, at: Date = new Date()): Promise<HousekeepingResult> {
  const db = ctx.db.kysely;
  return {
    idempotencyKeys: await idempotencyRepository.deleteClaimedBefore(
      db,
      new Date(at.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString(),
    ),
    refreshTokens: await refreshTokensRepository.deleteExpiredBefore(db, at.toISOString()),
    oneTimeCodes: await oneTimeCodesRepository.deleteExpiredBefore(db, at.toISOString()),
  };
}

/**
 * Runs housekeeping now and then hourly in this process; returns the stop function. Every API process may run
 * it: the deletes are idempotent, so several processes at once do no harm.
 */
export function startHousekeeping(ctx: AppContext, everyMs = HOUSEKEEPING_EVERY_MS): () => void {
  const tick = () =>
    void runHousekeeping(ctx).catch((err: unknown) => {
      console.warn(`[housekeeping] skipped this round: ${(err as Error).message}`);
    });
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
