import { MESSAGES } from '@hookreel/contracts';
import { z } from 'zod';
import { dependencyFailure } from '../../errors.ts';
import type { RouteModule } from './index.ts';

/**
 * GET /api/static/{path}: images and videos from the file store. Keys are unguessable (owner/uuid.ext) and
 * <img>/<video> cannot send a bearer header, so these URLs work like capability links.
 */
export const staticRoutes: RouteModule = async (api, { ctx }) => {
  api.get(
    '/static/*',
    { schema: { hide: true, params: z.object({ '*': z.string().max(400) }) } },
    async (request, reply) => {
      const key = request.params['*'];
      let file;
      try {
        file = await ctx.files.get(key);
      } catch (err) {
        // A bucket or disk that is failing is a 503 (the client retries), not a file that does not exist.
        if (dependencyFailure(err)) throw err;
        file = null;
      }
      if (!file) return reply.status(404).send({ detail: MESSAGES.server.notFound });
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', 'inline')
        .send(file.body);
    },
  );
};
