import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokenSigner } from '../auth/access-token.ts';
import { unauthorized } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard on protected routes. */
    userId: number;
  }
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
export function createAuthGuard(signer: AccessTokenSigner, sessionLive: SessionCheck) {
  return async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerOf(request);
    const claims = token ? await signer.verifyClaims(token) : null;
    if (!claims || !(await sessionLive(claims.userId, claims.issuedAtMs))) throw unauthorized();
    request.userId = claims.userId;
  };
}

/**
 * The guard of the job event stream: a ticket from POST /jobs/events/ticket (EventSource cannot send headers),
 * or else the Authorization header like every other route.
 */
export function createStreamGuard(signer: AccessTokenSigner, sessionLive: SessionCheck) {
  const requireUser = createAuthGuard(signer, sessionLive);
  return async function requireStreamUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const ticket = (request.query as { ticket?: unknown } | undefined)?.ticket;
    if (typeof ticket !== 'string') return requireUser(request, reply);
    const claims = await signer.verifyEventsTicket(ticket);
    if (!claims || !(await sessionLive(claims.userId, claims.issuedAtMs))) throw unauthorized();
    request.userId = claims.userId;
  };
}
