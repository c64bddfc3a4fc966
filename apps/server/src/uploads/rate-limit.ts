import { MESSAGES } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors.ts';

/**
 * One budget of uploads per user across every multipart route: `max` a minute, then 429 with Retry-After.
 * Runs as a preHandler (after the auth guard has set the user, before any byte of the body is read). Counters
 * live in process memory, like the sign-in limits: with N API processes a user gets up to N times as many.
 */
export function createUploadLimiter(max: number, windowMs = 60_000) {
  return createPerUserLimiter(max, MESSAGES.server.uploadRateLimited, windowMs);
}

/**
 * A per-user budget of `max` requests per window for one kind of request (a preHandler after the auth guard):
 * beyond it, 429 with `message` and Retry-After. In process memory, like the upload budget above.
 */
export function createPerUserLimiter(max: number, message: string, windowMs = 60_000) {
  const windows = new Map<number, { count: number; resetAt: number }>();
  return async function limitPerUser(request: FastifyRequest): Promise<void> {
    const now = Date.now();
    if (windows.size > 10_000) {
      for (const [user, w] of windows) if (w.resetAt <= now) windows.delete(user);
    }
    let w = windows.get(request.userId);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      windows.set(request.userId, w);
    }
    if (++w.count > max) {
      throw new HttpError(429, message, {
        'retry-after': String(Math.max(1, Math.ceil((w.resetAt - now) / 1000))),
      });
    }
  };
}
