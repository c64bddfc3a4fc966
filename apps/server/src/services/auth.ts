import { MESSAGES, type LoginRequest, type TokenPair } from '@hookreel/contracts';
import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import type { Executor } from '../db/database.ts';
import { identitiesRepository } from '../db/repositories/identities.ts';
import { refreshTokensRepository } from '../db/repositories/refresh-tokens.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { hashRefreshToken, newRefreshToken, newTokenFamily } from '../auth/refresh-token.ts';
import type { FlowState } from '../auth/oidc/flow-cookie.ts';
import type { SignInClient, VerifiedIdentity } from '../auth/oidc/sign-in-client.ts';
import { badRequest, conflict, unauthorized } from '../errors.ts';
import { createUserWithFreeCredits } from './users.ts';

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

export async function register(ctx: AppContext, input: LoginRequest): Promise<TokenPair> {
  // Hash before the transaction: it takes ~50 ms and SQLite holds its write lock for the whole transaction.
  const passwordHash = await hashPassword(input.password);
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const user = await createUserWithFreeCredits(trx, {
      email: input.email,
      passwordHash,
      trialCredits: ctx.config.trialCredits,
    });
    if (!user) throw conflict(MESSAGES.server.emailTaken);
    return issueTokenPair(ctx, trx, user.id);
  });
}

export async function login(ctx: AppContext, input: LoginRequest): Promise<TokenPair> {
  const user = await usersRepository.findByEmail(ctx.db.kysely, input.email);
  // Always verifies (against a dummy hash when there is no user), so timing does not reveal accounts.
  const valid = await verifyPassword(user?.password_hash, input.password);
  if (!user || !valid) throw unauthorized(MESSAGES.server.invalidCredentials);
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
 * Signs in whoever the provider vouched for: the user already linked to this provider subject, else the
 * account with this (verified) e-mail address, else a new account with the free credits.
 */
export async function signInWithIdentity(ctx: AppContext, identity: VerifiedIdentity): Promise<TokenPair> {
  const email = identity.email.trim().toLowerCase();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    let userId = await identitiesRepository.findUserId(trx, identity.provider, identity.subject);
    if (!userId) {
      const existing = await usersRepository.findByEmail(trx, email);
      // On a lost race with a concurrent first sign-in, the other transaction's user is the one to use.
      const user =
        existing ??
        (await createUserWithFreeCredits(trx, { email, passwordHash: null, trialCredits: ctx.config.trialCredits })) ??
        (await usersRepository.findByEmail(trx, email));
      if (!user) throw new Error('user vanished during sign-in');
      userId = user.id;
      await identitiesRepository.link(trx, { userId, provider: identity.provider, subject: identity.subject });
    }
    return issueTokenPair(ctx, trx, userId);
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
 * callback page with the tokens, or with `?error=`. Never throws for a failed sign-in: the person sees it there.
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
  const pair = await signInWithIdentity(ctx, identity);
  return back({ access_token: pair.access_token, refresh_token: pair.refresh_token });
}
