import { Creator, ErrorResponse, IdParam, RenameCreatorRequest } from '@hookreel/contracts';
import { z } from 'zod';
import * as avatars from '../../services/avatars/index.ts';
import { walkMultipart } from '../../uploads/index.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 404: ErrorResponse, 422: ErrorResponse };

/**
 * Own creators (docs/product.md#own-creators, decision 202): private actors from photos of people who agreed.
 * Every route is the signed-in user's own; another user's creator is 404.
 */
export const creatorRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.get(
    '/creators',
    { onRequest: requireUser, schema: { tags: ['creators'], response: { 200: z.array(Creator), 401: ErrorResponse } } },
    async (request) => avatars.listCreators(ctx, request.userId),
  );

  api.post(
    '/creators',
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags: ['creators'],
        consumes: ['multipart/form-data'],
        description:
          'Multipart: one photo in field `photo` (PNG, JPEG or WEBP, max 10MB), `name`, and `consent=true`: the ' +
          'uploader confirms the person agreed to be animated in ads (422 without it). A photo whose face cannot ' +
          'be animated is refused (422) with the reason.',
        response: { 201: Creator, 413: ErrorResponse, 415: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const created = await avatars.addCreator(ctx, request.userId, (onFile) =>
        walkMultipart(request, onFile, { maxFiles: 1 }),
      );
      return reply.status(201).send(created);
    },
  );

  api.get(
    '/creators/:id',
    { onRequest: requireUser, schema: { tags: ['creators'], params: IdParam, response: { 200: Creator, ...errors } } },
    async (request) => avatars.getCreator(ctx, request.userId, request.params.id),
  );

  api.patch(
    '/creators/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['creators'],
        params: IdParam,
        body: RenameCreatorRequest,
        response: { 200: Creator, ...errors },
      },
    },
    async (request) => avatars.renameCreator(ctx, request.userId, request.params.id, request.body),
  );

  api.delete(
    '/creators/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['creators'],
        params: IdParam,
        description: 'Deletes the creator, takes it out of every project, and deletes its photo and stills.',
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await avatars.deleteCreator(ctx, request.userId, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
