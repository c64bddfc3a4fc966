import { ErrorResponse, RemoteImageRequest, RemoteImageResponse } from '@hookreel/contracts';
import * as remoteImages from '../../services/platform/index.ts';
import type { RouteModule } from './index.ts';

/** The content generator demo (/generate): images the user names by address, fetched by the server. */
export const generateRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.post(
    '/generate/remote-image',
    {
      onRequest: requireUser,
      // A fetched image is stored like an upload, so it counts against the same per-user budget.
      preHandler: limitUploads,
      schema: {
        tags: ['generate'],
        body: RemoteImageRequest,
        description:
          'Fetches a public http(s) image address through the SSRF guard, cleans it like an upload and stores it: ' +
          'show it from /api/static/{file_path}.',
        response: {
          200: RemoteImageResponse,
          401: ErrorResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          422: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => remoteImages.fetchRemoteImage(ctx, request.userId, request.body.url, ctx.remoteImageFetch),
  );
};
