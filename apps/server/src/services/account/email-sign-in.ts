import type { AppContext } from '../../context.ts';
import { minutesOf, signInLimitsOf } from '../../auth/attempt-limiter.ts';
import { hashSecret, hashShortCode, inMinutes, newLinkSecret, newSixDigitCode } from '../../auth/one-time-secret.ts';
import { oneTimeCodesRepository } from '../../db/repositories/one-time-codes.ts';
import { signInEmail } from '../../mail/templates.ts';

/** How long a sign-in link and code work, and how many wrong codes kill a code. */
export const SIGN_IN_CODE_MINUTES = 10;
export const SIGN_IN_CODE_MAX_GUESSES = 5;

/** What the built-in provider's pages say when a step fails (shown on the page, never as JSON). */
export const EMAIL_SIGN_IN_ERRORS = {
  tooManyMails: (minutes: number) =>
    `Too many sign-in e-mails were requested. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyGuesses: (minutes: number) =>
    `Too many wrong codes from this network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  wrongCode: 'That code is not right. Check the newest e-mail and try again.',
  codeFormat: 'Enter the 6-digit code from the e-mail.',
  codeDead: 'This code has expired, was used, or had too many wrong tries. Send a new e-mail.',
  linkElsewhere:
    'This sign-in link has expired, was already used, or belongs to a sign-in started in another browser. ' +
    'Type the code from the e-mail on the sign-in page instead, or start again.',
} as const;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Mails a one-time link and a 6-digit code for the sign-in waiting on `interactionUid` (the provider's page in
 * this browser). Limited per address and per client. The answer is the same whether or not the address has
 * an account, so the page reveals nothing about who uses Hookreel.
 */
export async function sendSignInMail(
  ctx: AppContext,
  input: { email: string; interactionUid: string; clientIp: string; linkFor: (secret: string) => string },
): Promise<Outcome<null>> {
  const limits = signInLimitsOf(ctx);
  const wait = Math.max(
    limits.mailsPerAddress.blockedFor(input.email),
    limits.mailsPerClient.blockedFor(input.clientIp),
  );
  if (wait > 0) return { ok: false, error: EMAIL_SIGN_IN_ERRORS.tooManyMails(minutesOf(wait)) };
  limits.mailsPerAddress.record(input.email);
  limits.mailsPerClient.record(input.clientIp);

  const secret = newLinkSecret();
  const code = newSixDigitCode();
  await oneTimeCodesRepository.insert(ctx.db.kysely, {
    purpose: 'sign_in',
    secretHash: hashSecret(secret),
    codeHash: hashShortCode(ctx.config.jwtSecret, input.interactionUid, code),
    email: input.email,
    context: input.interactionUid,
    expiresAt: inMinutes(SIGN_IN_CODE_MINUTES),
  });
  await ctx.mailer.send({
    to: input.email,
    ...signInEmail({ link: input.linkFor(secret), code, minutes: SIGN_IN_CODE_MINUTES }),
  });
  return { ok: true, value: null };
}

/** The address a live link signs in, if it belongs to this browser's sign-in (without spending it). */
export async function peekSignInLink(ctx: AppContext, interactionUid: string, secret: string): Promise<string | null> {
  const row = await oneTimeCodesRepository.findLiveBySecret(ctx.db.kysely, 'sign_in', hashSecret(secret));
  return row && row.context === interactionUid ? row.email : null;
}

/** Spends a link: the address it proves, or an error for a dead link or one from another browser's sign-in. */
export async function redeemSignInLink(
  ctx: AppContext,
  interactionUid: string,
  secret: string,
): Promise<Outcome<string>> {
  const row = await oneTimeCodesRepository.findLiveBySecret(ctx.db.kysely, 'sign_in', hashSecret(secret));
  if (!row || row.context !== interactionUid || !row.email)
    return { ok: false, error: EMAIL_SIGN_IN_ERRORS.linkElsewhere };
  if (!(await oneTimeCodesRepository.consume(ctx.db.kysely, row.id)))
    return { ok: false, error: EMAIL_SIGN_IN_ERRORS.linkElsewhere };
  return { ok: true, value: row.email };
}

/**
 * Checks a typed code against the newest one mailed for this browser's sign-in. Each code dies after
 * SIGN_IN_CODE_MAX_GUESSES wrong tries, and each client has a budget of wrong tries across codes, so a million
 * possible codes are never within reach.
 */
export async function redeemSignInCode(
  ctx: AppContext,
  input: { interactionUid: string; code: string; clientIp: string },
): Promise<Outcome<string>> {
  const perClient = signInLimitsOf(ctx).codeFailuresPerClient;
  const wait = perClient.blockedFor(input.clientIp);
  if (wait > 0) return { ok: false, error: EMAIL_SIGN_IN_ERRORS.tooManyGuesses(minutesOf(wait)) };
  const code = input.code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) return { ok: false, error: EMAIL_SIGN_IN_ERRORS.codeFormat };

  const db = ctx.db.kysely;
  const row = await oneTimeCodesRepository.findLatestLiveByContext(db, 'sign_in', input.interactionUid);
  if (!row || !row.email || row.attempts >= SIGN_IN_CODE_MAX_GUESSES)
    return { ok: false, error: EMAIL_SIGN_IN_ERRORS.codeDead };
  if (row.code_hash !== hashShortCode(ctx.config.jwtSecret, input.interactionUid, code)) {
    perClient.record(input.clientIp);
    const attempts = await oneTimeCodesRepository.countAttempt(db, row.id);
    if (attempts >= SIGN_IN_CODE_MAX_GUESSES) {
      await oneTimeCodesRepository.consume(db, row.id);
      return { ok: false, error: EMAIL_SIGN_IN_ERRORS.codeDead };
    }
    return { ok: false, error: EMAIL_SIGN_IN_ERRORS.wrongCode };
  }
  if (!(await oneTimeCodesRepository.consume(db, row.id))) return { ok: false, error: EMAIL_SIGN_IN_ERRORS.codeDead };
  return { ok: true, value: row.email };
}

/** The address the newest live mail of this sign-in went to, to show on the page again. */
export async function pendingSignInEmail(ctx: AppContext, interactionUid: string): Promise<string | null> {
  return (
    (await oneTimeCodesRepository.findLatestLiveByContext(ctx.db.kysely, 'sign_in', interactionUid))?.email ?? null
  );
}
