import type { Transaction } from 'kysely';
import { paymentRequired } from '../errors.ts';
import type { Database } from '../db/schema.ts';
import type { Executor } from '../db/database.ts';
import { creditsRepository } from '../db/repositories/credits.ts';

/** Credits are stored in hundredths so fractional prices (0.05) never meet floating-point rounding. */
export const toHundredths = (credits: number): number => Math.round(credits * 100);
export const fromHundredths = (hundredths: number): number => hundredths / 100;

export async function grantCredits(
  trx: Transaction<Database> | Executor,
  userId: number,
  amountHundredths: number,
  reason: string,
): Promise<void> {
  await creditsRepository.addAvailable(trx, userId, amountHundredths);
  await creditsRepository.appendEntry(trx, {
    user_id: userId,
    kind: 'grant',
    amount: amountHundredths,
    hold_id: null,
    reason,
  });
}

/**
 * Reserves credits for an operation; call it in the same transaction that creates the job so a job never
 * exists without its hold. Throws 402 with the given message when the balance is short.
 */
export async function reserveCredits(
  trx: Transaction<Database>,
  userId: number,
  amountHundredths: number,
  operation: string,
  insufficientMessage: string,
): Promise<number> {
  const moved = await creditsRepository.moveAvailableToHeld(trx, userId, amountHundredths);
  if (!moved) throw paymentRequired(insufficientMessage);
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

/** For tests and audits: granted = available + held + consumed must hold for every user at all times. */
export async function ledgerBalances(db: Executor, userId: number) {
  return creditsRepository.balances(db, userId);
}
