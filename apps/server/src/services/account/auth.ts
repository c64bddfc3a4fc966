import { MESSAGES, VALIDATION, type LoginRequest, type RegisterRequest, type TokenPair } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import type { Executor } from '../../db/database.ts';
import { identitiesRepository } from '../../db/repositories/identities.ts';
import { refreshTokensRepository } from '../../db/repositories/refresh-tokens.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { hashRefreshToken, newRefreshToken, newTokenFamily } from '../../auth/refresh-token.ts';
import type { FlowState } from '../../auth/oidc/flow-cookie.ts';
import type { SignInClient, VerifiedIdentity } from '../../auth/oidc/sign-in-client.ts';
import { badRequest, conflict, HttpError, unauthorized, unprocessable } from '../../errors.ts';
import { minutesOf, signInLimitsOf } from '../../auth/attempt-limiter.ts';
import { hashSecret, inMinutes, inSeconds, newLinkSecret } from '../../auth/one-time-secret.ts';
import { isPasswordTooWeak } from '../../auth/password-strength.ts';
import { oneTimeCodesRepository } from '../../db/repositories/one-time-codes.ts';
import { verifyEmail } from '../../mail/templates.ts';
import { createUnverifiedUser, createUserWithFreeCredits, verifyEmailAndGrantTrial } from './users.ts';

/** Where verification links point (server-rendered page, see routes/auth.ts). */
export const VERIFY_EMAIL_PATH = '/api/auth/verify-email';

/** What `?error=` carries back to the front end's callback page, which shows "Authentication failed: {error}". */
export const SIGN_IN_ERRORS = {
  invalidRedirect: 'Invalid redirect_uri',
  expired: 'Sign-in expired. Please try again.',
  cancelled: 'Sign-in was cancelled',
  failed: 'Sign-in could not be verified',
  emailUnverified: 'Your e-mail address is not verified with the sign-in provider',
  unavailable: 'The sign-in provider cannot be reached. Please try again later.',
} as const;

/** The front-end pages allowed to receive tokens: our own origin only, so the login URL is no open redirect. */
const FRONTEND_CALLBACK_PATHS = ['/auth/google/callback', '/auth/callback'];

/** Verification links last a day: long enough to find the mail, short enough not to linger in inboxes. */
export const VERIFY_LINK_HOURS = 24;
/** The callback's exchange code: single use, bound to the browser, and only seconds long (RFC 9700 4.5). */
export const EXCHANGE_CODE_TTL_SEC = 60;

const tooMany = (ms: number) =>
  new HttpError(429, MESSAGES.server.tooManyFailedSignIns(minutesOf(ms)), {
    'retry-after': String(Math.max(1, Math.ceil(ms / 1000))),
  });

/**
 * Password registration: the account exists at once (and can sign in), but its address counts only once the
 * link we mail is opened: no trial and no spending before that (docs/security.md, pre-hijack and farming).
 */
export async function register(ctx: AppContext, input: RegisterRequest, clientIp: string): Promise<TokenPair> {
  const limits = signInLimitsOf(ctx);
  const wait = limits.registrationsPerClient.blockedFor(clientIp);
  if (wait > 0) throw tooMany(wait);
  if (isPasswordTooWeak(input.password, [input.email, input.email.split('@')[0] ?? '', 'hookreel']))
    throw unprocessable(VALIDATION.passwordTooCommon);
  limits.registrationsPerClient.record(clientIp);
  // Hash before the transaction: it takes ~50 ms and SQLite holds its write lock for the whole transaction.
  const passwordHash = await hashPassword(input.password);
  const { pair, userId } = await ctx.db.kysely.transaction().execute(async (trx) => {
    const user = await createUnverifiedUser(trx, { email: input.email, passwordHash });
    if (!user) throw conflict(MESSAGES.server.emailTaken);
    return { pair: await issueTokenPair(ctx, trx, user.id), userId: user.id };
  });
  await sendVerificationMail(ctx, userId, input.email);
  return pair;
}

/** Mails a verification link (at most a few per address per window; extra requests are silently dropped). */
export async function sendVerificationMail(ctx: AppContext, userId: number, email: string): Promise<void> {
  const perAddress = signInLimitsOf(ctx).mailsPerAddress;
  if (perAddress.blockedFor(email) > 0) return;
  perAddress.record(email);
  const secret = newLinkSecret();
  await oneTimeCodesRepository.insert(ctx.db.kysely, {
    purpose: 'verify_email',
    secretHash: hashSecret(secret),
    email,
    userId,
    expiresAt: inMinutes(VERIFY_LINK_HOURS * 60),
  });
  const link = `${ctx.config.publicUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(secret)}`;
  await ctx.mailer.send({ to: email, ...verifyEmail({ link, hours: VERIFY_LINK_HOURS }) });
}

/** Another verification mail for the signed-in account, unless it is verified already. */
export async function resendVerification(ctx: AppContext, userId: number): Promise<void> {
  const user = await usersRepository.findById(ctx.db.kysely, userId);
  if (!user) throw unauthorized();
  if (user.email_verified_at) return;
  await sendVerificationMail(ctx, user.id, user.email);
}

/**
 * Opens a verification link: the address is verified (and the trial granted) if the link is live and still
 * belongs to an account with that address. Returns the address, or null for a dead link.
 */
export async function verifyEmailLink(ctx: AppContext, secret: string): Promise<string | null> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await oneTimeCodesRepository.findLiveBySecret(trx, 'verify_email', hashSecret(secret));
    if (!row || row.user_id === null || !(await oneTimeCodesRepository.consume(trx, row.id))) return null;
    const user = await usersRepository.findById(trx, row.user_id);
    if (!user || user.email !== row.email) return null;
    await verifyEmailAndGrantTrial(trx, user, ctx.config.trialCredits);
    return user.email;
  });
}

/**
 * Password sign-in, limited per client and per address: 5 wrong passwords in 15 minutes lock the address
 * for the rest of that window, whether or not it has an account (so the lockout reveals nothing).
 */
export async function login(ctx: AppContext, input: LoginRequest, clientIp: string): Promise<TokenPair> {
  const limits = signInLimitsOf(ctx);
  const wait = Math.max(
    limits.loginFailuresPerAddress.blockedFor(input.email),
    limits.loginFailuresPerClient.blockedFor(clientIp),
  );
  if (wait > 0) throw tooMany(wait);
  const user = await usersRepository.findByEmail(ctx.db.kysely, input.email);
  // Always verifies (against a dummy hash when there is no user), so timing does not reveal accounts.
  const valid = await verifyPassword(user?.password_hash, input.password);
  if (!user || !valid) {
    limits.loginFailuresPerAddress.record(input.email);
    limits.loginFailuresPerClient.record(clientIp);
    throw unauthorized(MESSAGES.server.invalidCredentials);
  }
  limits.loginFailuresPerAddress.clear(input.email);
  await refreshTokensRepository.deleteExpiredForUser(ctx.db.kysely, user.id);
  return issueTokenPair(ctx, ctx.db.kysely, user.id);
}

/**
 * Exchanges a refresh token for a new pair (rotation). A token that was already exchanged means someone
 * else holds a copy: the whole family (this sign-in's chain of tokens) is revoked and both parties must sign
 * in again.
 */
export async function refresh(ctx: AppContext, refreshToken: string): Promise<TokenPair> {
  const invalid = () => unauthorized(MESSAGES.server.invalidRefreshToken);
  const row = await refreshTokensRepository.findByHash(ctx.db.kysely, hashRefreshToken(refreshToken));
  if (!row || row.revoked_at || row.expires_at <= now()) throw invalid();
  if (row.used_at) {
    await refreshTokensRepository.revokeFamily(ctx.db.kysely, row.family_id);
    throw invalid();
  }
  const pair = await ctx.db.kysely.transaction().execute(async (trx) => {
    // Loses only to a concurrent exchange of the same token, which is reuse as well.
    if (!(await refreshTokensRepository.markUsed(trx, row.id))) return null;
    return issueTokenPair(ctx, trx, row.user_id, row.family_id);
  });
  if (!pair) {
    await refreshTokensRepository.revokeFamily(ctx.db.kysely, row.family_id);
    throw invalid();
  }
  return pair;
}

/** Ends the sign-in the refresh token belongs to. Unknown tokens are ignored: logout always succeeds. */
export async function logout(ctx: AppContext, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  const row = await refreshTokensRepository.findByHash(ctx.db.kysely, hashRefreshToken(refreshToken));
  if (row) await refreshTokensRepository.revokeFamily(ctx.db.kysely, row.family_id);
}

/** A fresh access token and refresh token; a new family unless continuing one (refresh rotation). */
export async function issueTokenPair(
  ctx: AppContext,
  db: Executor,
  userId: number,
  familyId: string = newTokenFamily(),
): Promise<TokenPair> {
  const refreshToken = newRefreshToken();
  const expiresAt = new Date(Date.now() + ctx.config.refreshTokenTtlDays * 24 * 3600 * 1000).toISOString();
  await refreshTokensRepository.insert(db, { userId, familyId, tokenHash: hashRefreshToken(refreshToken), expiresAt });
  return { access_token: await ctx.tokens.sign(userId), refresh_token: refreshToken };
}

/**
 * Signs in whoever the provider vouched for (Google, or the built-in provider after an e-mail link or code):
 * the user already linked to this provider subject, else the account with this address, else a new account
 * with the trial. The address is proven, so an account that still waited for verification is taken over by
 * its rightful owner: whatever a squatter set up there (password, sessions, other sign-in links) is removed
 * first, then the address is marked verified.
 */
export async function signInWithIdentity(ctx: AppContext, identity: VerifiedIdentity): Promise<number> {
  const email = identity.email.trim().toLowerCase();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const linkedId = await identitiesRepository.findUserId(trx, identity.provider, identity.subject);
    // On a lost race with a concurrent first sign-in, the other transaction's user is the one to use.
    const user =
      (linkedId ? await usersRepository.findById(trx, linkedId) : null) ??
      (await usersRepository.findByEmail(trx, email)) ??
      (await createUserWithFreeCredits(trx, { email, passwordHash: null, trialCredits: ctx.config.trialCredits })) ??
      (await usersRepository.findByEmail(trx, email));
    if (!user) throw new Error('user vanished during sign-in');
    if (user.email_verified_at === null) {
      await usersRepository.clearPasswordAndEndSessions(trx, user.id);
      await refreshTokensRepository.deleteAllForUser(trx, user.id);
      await identitiesRepository.deleteAllForUser(trx, user.id);
      await verifyEmailAndGrantTrial(trx, user, ctx.config.trialCredits);
    }
    await identitiesRepository.link(trx, { userId: user.id, provider: identity.provider, subject: identity.subject });
    return user.id;
  });
}

/**
 * A one-time code for the front-end callback page, bound to the browser that started the sign-in: the caller
 * sets `binding` as a cookie only that browser holds, and exchange() wants both.
 */
export async function createExchangeCode(ctx: AppContext, userId: number, binding: string): Promise<string> {
  const code = newLinkSecret();
  await oneTimeCodesRepository.insert(ctx.db.kysely, {
    purpose: 'exchange',
    secretHash: hashSecret(code),
    userId,
    context: hashSecret(binding),
    expiresAt: inSeconds(EXCHANGE_CODE_TTL_SEC),
  });
  return code;
}

/** The callback page's POST: a live code plus this browser's binding cookie buy one token pair, once. */
export async function exchange(ctx: AppContext, code: string, binding: string | undefined): Promise<TokenPair> {
  const invalid = () => unauthorized(MESSAGES.server.signInCodeInvalid);
  if (!binding) throw invalid();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await oneTimeCodesRepository.findLiveBySecret(trx, 'exchange', hashSecret(code));
    if (!row || row.user_id === null || row.context !== hashSecret(binding)) throw invalid();
    if (!(await oneTimeCodesRepository.consume(trx, row.id))) throw invalid();
    return issueTokenPair(ctx, trx, row.user_id);
  });
}

/** The front-end page that will receive the tokens; 400 unless it is one of ours. */
export function checkFrontendRedirect(ctx: AppContext, redirectUri: string | undefined): string {
  const origin = new URL(ctx.config.publicUrl).origin;
  if (redirectUri === undefined) return `${origin}${FRONTEND_CALLBACK_PATHS[0]}`;
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw badRequest(SIGN_IN_ERRORS.invalidRedirect);
  }
  if (
    url.origin !== origin ||
    url.username ||
    url.password ||
    url.hash ||
    !FRONTEND_CALLBACK_PATHS.includes(url.pathname)
  ) {
    throw badRequest(SIGN_IN_ERRORS.invalidRedirect);
  }
  return url.href;
}

/**
 * Starts "Continue with Google": where to send the browser, and the flow state the callback will need (null
 * when the provider cannot be reached, in which case the browser goes straight back with `?error=`).
 */
export async function startOidcSignIn(
  ctx: AppContext,
  client: SignInClient,
  redirectUri: string | undefined,
  log: { warn(obj: object, msg: string): void },
): Promise<{ location: string; flow: FlowState | null }> {
  const frontend = checkFrontendRedirect(ctx, redirectUri);
  try {
    const { authorizationUrl, flow } = await client.start(frontend);
    return { location: authorizationUrl, flow };
  } catch (err) {
    // Discovery failed: the provider is down or misconfigured. The person sees it on the callback page.
    log.warn({ err }, 'OpenID provider unavailable');
    const back = new URL(frontend);
    back.searchParams.set('error', SIGN_IN_ERRORS.unavailable);
    return { location: back.href, flow: null };
  }
}

/**
 * Finishes the sign-in from the provider's redirect and returns where to send the browser: the front-end
 * callback page with `?code=` (exchanged for tokens by a POST), or with `?error=`. Never throws for a failed sign-in: the person sees it there.
 */
export async function finishOidcSignIn(
  ctx: AppContext,
  client: SignInClient,
  callbackUrl: URL,
  flow: FlowState | null,
  log: { warn(obj: object, msg: string): void },
): Promise<string> {
  const back = (params: Record<string, string>) => {
    const url = new URL(flow?.redirectUri ?? checkFrontendRedirect(ctx, undefined));
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.href;
  };
  if (!flow) return back({ error: SIGN_IN_ERRORS.expired });
  const providerError = callbackUrl.searchParams.get('error');
  if (providerError) {
    return back({ error: providerError === 'access_denied' ? SIGN_IN_ERRORS.cancelled : SIGN_IN_ERRORS.failed });
  }
  let identity: VerifiedIdentity;
  try {
    identity = await client.finish(callbackUrl, flow);
  } catch (err) {
    // State, PKCE, nonce or signature mismatch, or the provider is unreachable: worth a log line, not a 500.
    log.warn({ err }, 'OpenID sign-in failed');
    return back({ error: SIGN_IN_ERRORS.failed });
  }
  if (!identity.email || !identity.emailVerified) return back({ error: SIGN_IN_ERRORS.emailUnverified });
  const userId = await signInWithIdentity(ctx, identity);
  // Never the tokens themselves in the URL: a one-time code only this browser can exchange (login CSRF, logs).
  return back({ code: await createExchangeCode(ctx, userId, flow.binding) });
}
