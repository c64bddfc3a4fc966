import { FREE_CREDITS_GRANT, type User } from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { Executor } from '../db/database.ts';
import { trialGrantsRepository } from '../db/repositories/trial-grants.ts';
import { usersRepository, type UserRow } from '../db/repositories/users.ts';
import { trialKeyOf } from '../auth/trial-key.ts';
import { unauthorized } from '../errors.ts';
import { fromHundredths, grantCredits, toHundredths } from './credits.ts';

/** Every file a user owns is stored under this prefix, so deleting the account can delete them all at once. */
export const userFilePrefix = (userId: number): string => `users/${userId}`;

/**
 * Creates an account inside the caller's transaction; null when the e-mail address is taken. An account whose
 * address is verified (it came through Google or an e-mail link) gets the trial at once; one made with a
 * password gets it when its address is verified (verifyEmailAndGrantTrial).
 */
export async function createUser(
  trx: Transaction<Database>,
  user: { email: string; passwordHash: string | null; verified: boolean },
): Promise<UserRow | null> {
  const created = await usersRepository.insertIfEmailFree(trx, user);
  if (!created) return null;
  if (user.verified) await grantTrialOnce(trx, created);
  return created;
}

/** A new account with a verified address and its trial (Google / e-mail sign-in; benches). */
export const createVerifiedUser = (trx: Transaction<Database>, user: { email: string; passwordHash: string | null }) =>
  createUser(trx, { ...user, verified: true });

/**
 * The one place the trial is granted: once per address, ever. The address's salted hash is claimed first and
 * kept after the account is deleted, so deleting and registering again (or `ada+2@…`) grants nothing.
 * Returns whether credits were granted.
 */
export async function grantTrialOnce(trx: Executor, user: Pick<UserRow, 'id' | 'email'>): Promise<boolean> {
  const salt = await trialGrantsRepository.salt(trx);
  if (!(await trialGrantsRepository.claim(trx, trialKeyOf(salt, user.email)))) return false;
  await grantCredits(trx, user.id, toHundredths(FREE_CREDITS_GRANT), 'free credits for a new account');
  return true;
}

/** Marks the address verified and grants the trial; safe to call again (only the first call does anything). */
export async function verifyEmailAndGrantTrial(trx: Transaction<Database>, user: Pick<UserRow, 'id' | 'email'>) {
  if (await usersRepository.markVerified(trx, user.id)) await grantTrialOnce(trx, user);
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

/**
 * Whether the user is on the free trial, i.e. has never bought a plan; their videos carry the watermark. Payment
 * is simulated in this product (spec 7, "Not server calls"), so nobody has bought one yet.
 */
export const isOnFreeTrial = async (_userId: number): Promise<boolean> => true;
