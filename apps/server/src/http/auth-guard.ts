import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, INTEGRATION_MESSAGES, type ApiKeyScope } from '@hookreel/contracts';
import type { AccessTokenSigner } from '../auth/access-token.ts';
import { AttemptLimiter } from '../auth/attempt-limiter.ts';
import { forbidden, HttpError, unauthorized } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard on protected routes. */
    userId: number;
    /** Set when the request was authenticated with a personal API key rather than a session. */
    apiKeyId?: number;
    /** The key's scope: only an `admin` key reaches administrator routes (decision 175). */
    apiKeyScope?: ApiKeyScope;
  }
}

/** Who sent the request, as the services see it (the account, and the key when one was used). */
export const callerOf = (request: FastifyRequest) => ({
  userId: request.userId,
  apiKeyId: request.apiKeyId,
  apiKeyScope: request.apiKeyScope,
});

/** How the guard checks personal API keys (services/integrations/api-keys.ts), and each key's budget of requests. */
export interface ApiKeyAuth {
  authenticate(token: string): Promise<{ userId: number; keyId: number; scope: ApiKeyScope } | null>;
  /** Requests per minute per key. */
  perMinute: number;
}

export type KeyChecker = (request: FastifyRequest, token: string) => Promise<void>;

/**
 * The guard's key check with a sliding one-minute budget per key. Counters live in process memory, like the
 * other limits: with N API processes a key gets up to N times as many (docs/security.md).
 */
export function createKeyChecker(keys: ApiKeyAuth): KeyChecker {
  const limiter = new AttemptLimiter(keys.perMinute, 60_000);
  return async (request: FastifyRequest, token: string): Promise<void> => {
    const found = await keys.authenticate(token);
    if (!found) throw unauthorized();
    const id = String(found.keyId);
    const wait = limiter.blockedFor(id);
    if (wait > 0) {
      throw new HttpError(429, INTEGRATION_MESSAGES.apiKeyRateLimited(keys.perMinute), {
        'retry-after': String(Math.max(1, Math.ceil(wait / 1000))),
      });
    }
    limiter.record(id);
    request.userId = found.userId;
    request.apiKeyId = found.keyId;
    request.apiKeyScope = found.scope;
  };
}

/**
 * The bearer token from the Authorization header, and from nowhere else: a token in a URL ends up in logs,
 * history and Referer headers (the job event stream uses a ticket of its own instead).
 */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return null;
}

/** Whether a token issued at `issuedAtMs` still stands for this user (the account exists, sessions not ended). */
export type SessionCheck = (userId: number, issuedAtMs: number) => Promise<boolean>;

/**
 * Verifies the bearer token and that its session still stands: an access token outlives a deleted account, or
 * an account whose sessions were ended (a squatter's, when the real owner signed in), by up to its TTL, and
 * every service below relies on the user row being there.
 */
export function createAuthGuard(signer: AccessTokenSigner, sessionLive: SessionCheck, checkKey?: KeyChecker) {
  return async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerOf(request);
    if (token?.startsWith(API_KEY_PREFIX) && checkKey) return checkKey(request, token);
    const claims = token ? await signer.verifyClaims(token) : null;
    if (!claims || !(await sessionLive(claims.userId, claims.issuedAtMs))) throw unauthorized();
    request.userId = claims.userId;
  };
}

/**
 * For what a key must not do (decision 131): make or revoke keys, manage webhooks, delete the account. A leaked
 * key then cannot mint itself a successor nor lock its owner out. A signed-in session only.
 */
export function createSessionGuard(signer: AccessTokenSigner, sessionLive: SessionCheck) {
  const requireUser = createAuthGuard(signer, sessionLive);
  return async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (bearerOf(request)?.startsWith(API_KEY_PREFIX)) throw forbidden(INTEGRATION_MESSAGES.sessionOnly);
    return requireUser(request, reply);
  };
}

/**
 * The guard of the job event stream: a ticket from POST /jobs/events/ticket (EventSource cannot send headers),
 * or else the Authorization header like every other route.
 */
export function createStreamGuard(signer: AccessTokenSigner, sessionLive: SessionCheck, checkKey?: KeyChecker) {
  const requireUser = createAuthGuard(signer, sessionLive, checkKey);
  return async function requireStreamUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const ticket = (request.query as { ticket?: unknown } | undefined)?.ticket;
    if (typeof ticket !== 'string') return requireUser(request, reply);
    const claims = await signer.verifyEventsTicket(ticket);
    if (!claims || !(await sessionLive(claims.userId, claims.issuedAtMs))) throw unauthorized();
    request.userId = claims.userId;
  };
}
