import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { IDEMPOTENCY_KEY_MAX, idempotent, parseIdempotencyKey } from '../services/platform/index.ts';

/** Route schema part for every credit-spending call: documents the header (and bounds its length). */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .optional()
    .describe('Repeats with the same key get the first response back and spend nothing more (decision 050).'),
});

/** The schema the route declares for a response with `status`; a replay of that response is read back through it. */
function responseSchemaOf(request: FastifyRequest, status: number): z.ZodType {
  const responses = request.routeOptions.schema?.response as Record<number, unknown> | undefined;
  const schema = responses?.[status];
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`${request.routeOptions.url ?? request.url} declares no ${status} response to replay`);
  }
  return schema;
}

/**
 * Answers a credit-spending request through its Idempotency-Key, if any: the first run's response, or its
 * replay (with `Idempotent-Replayed: true`). `fingerprint` is what identifies the request beyond its route:
 * params, query, body, uploaded files. Call it after a multipart body has been read.
 */
export async function sendIdempotent<T>(
  ctx: Pick<AppContext, 'db'>,
  request: FastifyRequest,
  reply: FastifyReply,
  fingerprint: unknown,
  run: () => Promise<T>,
  status = 200,
): Promise<FastifyReply> {
  const out = await idempotent(
    ctx,
    {
      userId: request.userId,
      key: parseIdempotencyKey(request.headers['idempotency-key']),
      scope: `${request.method} ${request.routeOptions.url ?? request.url}`,
      request: fingerprint,
      status,
      response: responseSchemaOf(request, status),
    },
    run,
  );
  if (out.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(out.status).send(out.body);
}
