import {
  Avatar,
  ErrorResponse,
  IdParam,
  LIMITS,
  ListAvatarsQuery,
  SavedBounds,
  TalkingPreview,
} from '@hookreel/contracts';
import { z } from 'zod';
import * as avatars from '../../services/avatars/index.ts';
import { walkMultipart } from '../../uploads/index.ts';
import { callerOf } from '../auth-guard.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 422: ErrorResponse };

/** The avatar library (docs/product.md#other-screens). Reads need sign-in; writes are for admins (ADMIN_EMAILS). */
export const avatarRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  for (const path of ['/avatars/', '/avatars']) {
    api.get(
      path,
      {
        onRequest: requireUser,
        schema: {
          hide: path === '/avatars',
          tags: ['avatars'],
          querystring: ListAvatarsQuery,
          response: { 200: z.array(Avatar), ...errors },
        },
      },
      async (request) => avatars.listAvatars(ctx, request.userId, request.query),
    );
  }

  api.put(
    '/avatars/:id/bounds',
    {
      onRequest: requireUser,
      schema: { tags: ['avatars'], params: IdParam, body: SavedBounds, response: { 200: Avatar, ...errors } },
    },
    async (request) => avatars.updateAvatarBounds(ctx, callerOf(request), request.params.id, request.body),
  );

  api.post(
    '/avatars/upload',
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags: ['avatars'],
        consumes: ['multipart/form-data'],
        description:
          'Multipart: one or more images in field `files` (PNG, JPEG or WEBP, max 10MB each) and `consent=true`, ' +
          "the uploader's confirmation that they have the pictured people's consent (422 without it). Admins only.",
        response: { 200: z.array(Avatar), 413: ErrorResponse, 415: ErrorResponse, ...errors },
      },
    },
    async (request) =>
      avatars.uploadAvatars(ctx, callerOf(request), (onFile) =>
        walkMultipart(request, onFile, { maxFiles: LIMITS.avatarUploadMaxFiles }),
      ),
  );

  // Any signed-in user may ask for the preview of an actor they can see: free, made once, one render at a time.
  api.post(
    '/avatars/:id/talking-preview',
    {
      onRequest: requireUser,
      schema: { tags: ['avatars'], params: IdParam, response: { 200: TalkingPreview, ...errors } },
    },
    async (request) => avatars.requestTalkingPreview(ctx, request.userId, request.params.id),
  );

  api.delete(
    '/avatars/:id',
    { onRequest: requireUser, schema: { tags: ['avatars'], params: IdParam, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await avatars.deleteAvatar(ctx, callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
