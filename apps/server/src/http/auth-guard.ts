import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokenSigner } from '../auth/access-token.ts';
import { unauthorized } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard on protected routes. */
    userId: number;
  }
}

/** The bearer token from the Authorization header, or from `?access_token=` for EventSource and <video> URLs. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  const q = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof q === 'string' && q.length < 4096 ? q : null;
}

/**
 * Verifies the bearer token and that its user still exists: an access token outlives a deleted account by up
 * to its TTL, and every service below relies on the user row being there.
 */
export function createAuthGuard(signer: AccessTokenSigner, userExists: (id: number) => Promise<boolean>) {
  return async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerOf(request);
    const userId = token ? await signer.verify(token) : null;
    if (!userId || !(await userExists(userId))) throw unauthorized();
    request.userId = userId;
  };
}
