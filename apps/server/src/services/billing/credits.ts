import {
  LEDGER_PAGE_SIZE,
  MESSAGES,
  type LedgerEntry,
  type LedgerKind,
  type LedgerPage,
  type PriceList,
  CHARACTERS_PER_TYPE,
  PRICES,
  VIDEOS_PER_PACK,
  REALISTIC_HOOK_SECONDS,
  realisticVideoCost,
  fromHundredths,
} from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import { now, type DialectName } from '../../db/database.ts';
import { forbidden, paymentRequired, unprocessable } from '../../errors.ts';
import type { Database } from '../../db/schema.ts';
import type { Executor } from '../../db/database.ts';
import { creditsRepository } from '../../db/repositories/credits.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { legacyTrialKeyOf, trialKeyOf } from '../../auth/trial-key.ts';

/** Credits are stored in hundredths so fractional prices (0.05) never meet floating-point rounding. */
export { fromHundredths, toHundredths } from '@hookreel/contracts';

export interface GrantOptions {
  /** grant (trial, administrator), purchase (checkout, renewal) or refund. */
  kind?: 'grant' | 'purchase' | 'refund';
  /** A subscription allowance: the part a renewal's rollover cap applies to. */
  plan?: boolean;
  ref?: string | null;
  jobId?: number | null;
}

/** Adds credits and writes the ledger row saying why; the only way credits come in. */
export async function grantCredits(
  trx: Transaction<Database> | Executor,
  userId: number,
  amountHundredths: number,
  reason: string,
  opts: GrantOptions = {},
): Promise<void> {
  await creditsRepository.addAvailable(trx, userId, amountHundredths);
  if (opts.plan) await creditsRepository.addPlanCredits(trx, userId, amountHundredths);
  await creditsRepository.appendEntry(trx, {
    user_id: userId,
    kind: opts.kind ?? 'grant',
    amount: amountHundredths,
    hold_id: null,
    reason,
    ref: opts.ref ?? null,
    job_id: opts.jobId ?? null,
  });
}

/** An administrator takes credits back: never below zero (422 with what the user has), one ledger row. */
export async function takeCredits(
  trx: Executor,
  userId: number,
  amountHundredths: number,
  reason: string,
  ref: string,
): Promise<void> {
  if (!(await creditsRepository.takeAvailable(trx, userId, amountHundredths))) {
    const b = await creditsRepository.balances(trx, userId);
    throw unprocessable(`The user has only ${fromHundredths(b.available).toFixed(2)} credits to take`);
  }
  await creditsRepository.appendEntry(trx, {
    user_id: userId,
    kind: 'take',
    amount: amountHundredths,
    hold_id: null,
    reason,
    ref,
  });
}

/** A renewal: the subscription allowance above `capHundredths` expires (a ledger row says how much). */
export async function expirePlanCredits(trx: Executor, userId: number, capHundredths: number, reason: string) {
  const expired = await creditsRepository.expirePlanCreditsAbove(trx, userId, capHundredths);
  if (expired > 0) {
    await creditsRepository.appendEntry(trx, {
      user_id: userId,
      kind: 'expire',
      amount: expired,
      hold_id: null,
      reason,
    });
  }
  return expired;
}

/**
 * The address's mailbox (canonicalEmail: case, +tags, Gmail's dots and googlemail.com folded) hashed with the
 * database's own salt: comparable, but not the address (decision 174).
 */
export async function trialEmailHash(db: Executor, email: string): Promise<string> {
  return trialKeyOf(await creditsRepository.trialEmailSalt(db), email);
}

/**
 * The free trial, once per mailbox ever: the mailbox's salted hash is claimed first (a unique key, so of two
 * concurrent sign-ups one wins) and outlives the account, so deleting it and signing up again grants nothing.
 * A claim made under the key used before decision 174 counts too. Returns whether credits were granted.
 */
export async function grantTrialOnce(
  trx: Executor,
  userId: number,
  email: string,
  amountHundredths: number,
): Promise<boolean> {
  if (amountHundredths <= 0) return false;
  const salt = await creditsRepository.trialEmailSalt(trx);
  const emailHash = trialKeyOf(salt, email);
  const legacy = legacyTrialKeyOf(salt, email);
  if (legacy !== emailHash && (await creditsRepository.trialClaimed(trx, legacy))) return false;
  if (!(await creditsRepository.claimTrial(trx, emailHash, now()))) return false;
  await grantCredits(trx, userId, amountHundredths, 'Free trial');
  return true;
}

/** Only verified addresses may spend: unverified sign-ups are how credits were farmed (docs/security.md). */
async function assertMaySpend(trx: Executor, userId: number): Promise<void> {
  const owner = await usersRepository.findById(trx, userId);
  if (owner && owner.email_verified_at === null) throw forbidden(MESSAGES.server.emailNotVerified);
}

/**
 * A request that holds credits for several jobs checks its whole price first, in the transaction that then holds
 * them: a short balance is one 402 naming the request's price and shortfall, not the price of the one job the
 * balance ran out on (decision 197).
 */
export async function assertCoversRequest(
  trx: Transaction<Database>,
  dialect: DialectName,
  userId: number,
  amountHundredths: number,
  insufficientMessage: string,
): Promise<void> {
  await assertMaySpend(trx, userId);
  const available = await creditsRepository.availableLocked(trx, dialect, userId);
  if (available < amountHundredths) {
    throw paymentRequired(insufficientMessage, {
      required: fromHundredths(amountHundredths),
      available: fromHundredths(available),
    });
  }
}

/**
 * Reserves credits for an operation; call it in the same transaction that creates the job so a job never
 * exists without its hold. Throws 402 with the given message and the missing amount when the balance is short.
 */
export async function reserveCredits(
  trx: Transaction<Database>,
  userId: number,
  amountHundredths: number,
  operation: string,
  insufficientMessage: string,
): Promise<number> {
  await assertMaySpend(trx, userId);
  const moved = await creditsRepository.moveAvailableToHeld(trx, userId, amountHundredths);
  if (!moved) {
    const b = await creditsRepository.balances(trx, userId);
    throw paymentRequired(insufficientMessage, {
      required: fromHundredths(amountHundredths),
      available: fromHundredths(b.available),
    });
  }
  const holdId = await creditsRepository.createHold(trx, userId, amountHundredths, operation);
  await creditsRepository.appendEntry(trx, {
    user_id: userId,
    kind: 'hold',
    amount: amountHundredths,
    hold_id: holdId,
    reason: operation,
  });
  return holdId;
}

/** Success: the held credits are consumed. Safe to call twice; only the first call moves anything. */
export async function captureHold(trx: Executor, holdId: number): Promise<boolean> {
  return resolve(trx, holdId, 'captured');
}

/** Failure, cancel or delete before completion: the held credits return. Safe to call twice. */
export async function releaseHold(trx: Executor, holdId: number): Promise<boolean> {
  return resolve(trx, holdId, 'released');
}

async function resolve(trx: Executor, holdId: number, state: 'captured' | 'released'): Promise<boolean> {
  const hold = await creditsRepository.resolveHold(trx, holdId, state);
  if (!hold) return false;
  await creditsRepository.settleHeld(trx, hold.user_id, hold.amount, state === 'released');
  await creditsRepository.appendEntry(trx, {
    user_id: hold.user_id,
    kind: state === 'captured' ? 'capture' : 'release',
    amount: hold.amount,
    hold_id: holdId,
    reason: state,
  });
  return true;
}

/**
 * For tests and audits: granted = available + held + consumed must hold for every user at all times. The balances
 * are three reads; outside a transaction they are made in one snapshot (repeatable read), or a job settling its
 * hold between them shows a ledger that never existed.
 */
export async function ledgerBalances(db: Executor, userId: number) {
  if (db.isTransaction) return creditsRepository.balances(db, userId);
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => creditsRepository.balances(trx, userId));
}

/** GET /api/credits/prices: the one price list every screen reads, and this server's trial amount. */
export const priceList = (ctx: Pick<AppContext, 'config'>): PriceList => ({
  prices: { ...PRICES },
  trial_credits: ctx.config.trialCredits,
  realistic: {
    credits_per_second: ctx.config.realisticCreditsPerSecond,
    hook_video: realisticVideoCost(ctx.config.realisticCreditsPerSecond, REALISTIC_HOOK_SECONDS),
  },
  characters_per_type: CHARACTERS_PER_TYPE,
  videos_per_pack: VIDEOS_PER_PACK,
});

/** Signed change of the spendable balance for each kind of entry. */
const SIGN: Record<LedgerKind, number> = {
  grant: 1,
  purchase: 1,
  refund: 1,
  release: 1,
  hold: -1,
  take: -1,
  expire: -1,
  capture: 0,
};

/** What people read for the operation names stored in holds (job names). */
const REASON_LABELS: Record<string, string> = {
  captured: 'Charged for a finished job',
  released: 'Returned: the job failed, was cancelled or deleted',
  'render-project-video': 'Product-in-hand video',
  'merge-character': 'Product-in-hand merge',
  'generate-characters': 'Hook-pack characters',
  'generate-preview': 'Hook-pack previews',
  'render-hook-video': 'Hook-pack video',
};

/** GET /api/credits/ledger?cursor=: newest first, LEDGER_PAGE_SIZE a page. */
export async function ledgerPage(ctx: Pick<AppContext, 'db'>, userId: number, cursor?: number): Promise<LedgerPage> {
  const rows = await creditsRepository.page(ctx.db.kysely, userId, cursor ?? null, LEDGER_PAGE_SIZE + 1);
  const page = rows.slice(0, LEDGER_PAGE_SIZE);
  const entries: LedgerEntry[] = page.map((r) => ({
    id: r.id,
    kind: r.kind,
    amount: fromHundredths(r.amount),
    change: fromHundredths(SIGN[r.kind] * r.amount),
    balance_after: r.balance_after === null ? null : fromHundredths(r.balance_after),
    reason: REASON_LABELS[r.reason] ?? r.reason,
    job_id: r.linked_job_id ?? null,
    hook_pack_id: r.linked_pack_id ?? null,
    created_at: r.created_at,
  }));
  const last = page.at(-1);
  return { entries, next_cursor: rows.length > LEDGER_PAGE_SIZE && last ? last.id : null };
}
