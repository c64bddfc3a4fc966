import { MESSAGES } from '@hookreel/contracts';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { HttpError } from '../errors.ts';

/**
 * Per-route limit for sign-in calls: `max` requests a minute per client IP, then 429 {detail}. Counters are
 * in process memory, so with N API processes the effective limit is N times higher.
 */
export function authRateLimit(max: number): RateLimitOptions {
  return {
    max,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, MESSAGES.server.rateLimited, {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  };
}
