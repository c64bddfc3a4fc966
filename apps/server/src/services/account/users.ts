import type { User } from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { billingRepository } from '../../db/repositories/billing.ts';
import { usersRepository, type UserRow } from '../../db/repositories/users.ts';
import { unauthorized } from '../../errors.ts';
import { fromHundredths, grantTrialOnce, toHundredths } from '../billing/index.ts';

/** Every file a user owns is stored under this prefix, so deleting the account can delete them all at once. */
export const userFilePrefix = (userId: number): string => `users/${userId}`;

/**
 * Creates an account whose address is verified (it came through Google or an e-mail link) with the free trial
 * (TRIAL_CREDITS), inside the caller's transaction so a user never exists without it — unless this e-mail
 * address had the trial before (grantTrialOnce). Null when the address is taken.
 */
export async function createUserWithFreeCredits(
  trx: Transaction<Database>,
  user: { email: string; passwordHash: string | null; trialCredits: number },
): Promise<UserRow | null> {
  const created = await usersRepository.insertIfEmailFree(trx, { ...user, verified: true });
  if (!created) return null;
  await grantTrialOnce(trx, created.id, created.email, toHundredths(user.trialCredits));
  return created;
}

/**
 * Creates an account whose address is not verified yet (password registration): no trial until the mailed
 * link is opened (verifyEmailAndGrantTrial). Null when the address is taken.
 */
export async function createUnverifiedUser(
  trx: Transaction<Database>,
  user: { email: string; passwordHash: string | null },
): Promise<UserRow | null> {
  return usersRepository.insertIfEmailFree(trx, { ...user, verified: false });
}

/** Marks the address verified and grants the trial; safe to call again (only the first call does anything). */
export async function verifyEmailAndGrantTrial(
  trx: Transaction<Database>,
  user: Pick<UserRow, 'id' | 'email'>,
  trialCredits: number,
): Promise<void> {
  if (await usersRepository.markVerified(trx, user.id))
    await grantTrialOnce(trx, user.id, user.email, toHundredths(trialCredits));
}

/** Administrators are ADMIN_EMAILS addresses that have been verified (anyone could register one otherwise). */
export const isAdminRow = (ctx: Pick<AppContext, 'config'>, row: Pick<UserRow, 'email' | 'email_verified_at'>) =>
  row.email_verified_at !== null && ctx.config.adminEmails.has(row.email.trim().toLowerCase());

export async function getCurrentUser(ctx: AppContext, userId: number): Promise<User> {
  const row = await usersRepository.findById(ctx.db.kysely, userId);
  // A valid access token of a deleted account: the session is over, not "user not found".
  if (!row) throw unauthorized();
  return {
    id: row.id,
    email: row.email,
    credits: fromHundredths(row.credits_available),
    notify: row.notify === 1,
    is_admin: isAdminRow(ctx, row),
    created_at: row.created_at,
  };
}

export async function setNotify(ctx: AppContext, userId: number, notify: boolean): Promise<{ notify: boolean }> {
  if (!(await usersRepository.setNotify(ctx.db.kysely, userId, notify))) throw unauthorized();
  return { notify };
}

/**
 * Deletes the account: the user row first (every table that references users cascades, refresh tokens
 * included, so all sessions end), then the files. Files go second because an orphaned file is harmless and
 * an account that cannot be deleted because of a storage hiccup is not.
 */
export async function deleteAccount(ctx: AppContext, userId: number): Promise<void> {
  if (!(await usersRepository.delete(ctx.db.kysely, userId))) throw unauthorized();
  await ctx.files.deletePrefix(userFilePrefix(userId));
}

/**
 * Used by the auth guard on every protected request: a valid token of a deleted account is not a session, nor
 * one issued before the account's sessions were ended.
 */
export async function sessionStands(ctx: AppContext, userId: number, issuedAtMs: number): Promise<boolean> {
  const row = await usersRepository.findById(ctx.db.kysely, userId);
  if (!row) return false;
  return !row.sessions_revoked_at || issuedAtMs > Date.parse(row.sessions_revoked_at);
}

/** Whether the user has never paid (no purchase in the ledger); their videos carry the free-trial watermark. */
export const isOnFreeTrial = async (ctx: Pick<AppContext, 'db'>, userId: number): Promise<boolean> =>
  !(await billingRepository.hasPurchased(ctx.db.kysely, userId));
