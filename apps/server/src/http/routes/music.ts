import { ErrorResponse, HookPack, IdParam, MUSIC_LIMITS, Project } from '@hookreel/contracts';
import * as style from '../../services/projects/index.ts';
import * as packStyle from '../../services/hook-packs/index.ts';
import { MUSIC_MESSAGES } from '../../services/video/index.ts';
import { singleFilePart } from '../../uploads/index.ts';
import { payloadTooLarge } from '../../errors.ts';
import type { RouteModule } from './index.ts';
import type { FastifyRequest } from 'fastify';

const errors = { 401: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 422: ErrorResponse };
const description = 'Multipart: `music` (MP3, WAV or M4A, max 20MB, at most 10 minutes); replaces any earlier one.';

/** The one `music` file of a multipart body, with the 20 MB cap enforced while reading. */
const musicPart = (request: FastifyRequest) =>
  singleFilePart(request, 'music', MUSIC_MESSAGES.broken, {
    fileSize: MUSIC_LIMITS.maxBytes,
    tooLarge: () => payloadTooLarge(MUSIC_MESSAGES.tooLarge),
  });

/** The optional music bed of a project or a hook pack (docs/video-design.md#sound). */
export const musicRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.put(
    '/projects/:id/music',
    {
      onRequest: requireUser,
      // The same per-user upload budget as every other upload route (issue #33).
      preHandler: limitUploads,
      schema: {
        tags: ['projects'],
        consumes: ['multipart/form-data'],
        description,
        params: IdParam,
        response: { 200: Project, ...errors },
      },
    },
    async (request) => style.setProjectMusic(ctx, request.userId, request.params.id, await musicPart(request)),
  );
  api.delete(
    '/projects/:id/music',
    { onRequest: requireUser, schema: { tags: ['projects'], params: IdParam, response: { 200: Project, ...errors } } },
    async (request) => style.clearProjectMusic(ctx, request.userId, request.params.id),
  );
  api.put(
    '/hooks/:id/music',
    {
      onRequest: requireUser,
      // The same per-user upload budget as every other upload route (issue #33).
      preHandler: limitUploads,
      schema: {
        tags: ['hook-packs'],
        consumes: ['multipart/form-data'],
        description,
        params: IdParam,
        response: { 200: HookPack, ...errors },
      },
    },
    async (request) => packStyle.setPackMusic(ctx, request.userId, request.params.id, await musicPart(request)),
  );
  api.delete(
    '/hooks/:id/music',
    {
      onRequest: requireUser,
      // The same per-user upload budget as every other upload route (issue #33).
      preHandler: limitUploads,
      schema: { tags: ['hook-packs'], params: IdParam, response: { 200: HookPack, ...errors } },
    },
    async (request) => packStyle.clearPackMusic(ctx, request.userId, request.params.id),
  );
};
