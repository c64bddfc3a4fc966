import { MESSAGES } from '@hookreel/contracts';
import { z } from 'zod';
import { dependencyFailure } from '../../errors.ts';
import { parseRange } from '../byte-range.ts';
import { isSafeFileName } from '../../services/video/index.ts';
import type { RouteModule } from './index.ts';

/**
 * GET /api/static/{path}: images and videos from the file store. Keys are unguessable (owner/uuid.ext) and
 * <img>/<video> cannot send a bearer header, so these URLs work like capability links.
 */
export const staticRoutes: RouteModule = async (api, { ctx }) => {
  api.get(
    '/static/*',
    {
      schema: {
        hide: true,
        params: z.object({ '*': z.string().max(400) }),
        // ?download=<name>: save under this name (the job DTO's download_url carries the server-made name).
        querystring: z.object({ download: z.string().refine(isSafeFileName).optional() }),
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      const { download } = request.query;
      const headers = {
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, max-age=3600',
        'content-disposition': download ? `attachment; filename="${download}"` : 'inline',
        // Browsers seek in a <video> (and Safari plays one at all) only where byte ranges are offered.
        'accept-ranges': 'bytes',
      };
      const missing = () => reply.status(404).send({ detail: MESSAGES.server.notFound });
      try {
        const rangeHeader = request.headers.range;
        if (rangeHeader) {
          const info = await ctx.files.head(key);
          if (!info) return missing();
          const range = parseRange(rangeHeader, info.size);
          if (range === 'unsatisfiable') {
            return reply
              .status(416)
              .headers(headers)
              .header('content-range', `bytes */${info.size}`)
              .send({ detail: 'Requested range not satisfiable' });
          }
          if (range) {
            const part = await ctx.files.get(key, range);
            if (!part) return missing();
            return reply
              .status(206)
              .headers(headers)
              .header('content-type', part.contentType)
              .header('content-length', range.end - range.start + 1)
              .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
              .send(part.body);
          }
        }
        const file = await ctx.files.get(key);
        if (!file) return missing();
        return reply
          .headers(headers)
          .header('content-type', file.contentType)
          .header('content-length', file.size)
          .send(file.body);
      } catch (err) {
        // A bucket or disk that is failing is a 503 (the client retries), not a file that does not exist; an
        // unsafe key is simply one that names nothing.
        if (dependencyFailure(err)) throw err;
        return missing();
      }
    },
  );
};
