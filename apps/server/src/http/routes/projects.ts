import {
  CreateProjectResponse,
  ErrorResponse,
  IdParam,
  Project,
  SelectedCharactersRequest,
  UpdateProjectRequest,
  VALIDATION,
} from '@hookreel/contracts';
import { z } from 'zod';
import * as projects from '../../services/projects/index.ts';
import { walkMultipart, type UploadedFile } from '../../uploads/index.ts';
import { unprocessable } from '../../errors.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 404: ErrorResponse, 422: ErrorResponse };

/** Projects (docs/product.md#projects). Paths answer with and without the trailing slash the web app uses. */
export const projectRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  for (const path of ['/projects/', '/projects']) {
    const hide = path === '/projects';
    api.get(
      path,
      {
        onRequest: requireUser,
        schema: { hide, tags: ['projects'], response: { 200: z.array(Project), 401: ErrorResponse } },
      },
      async (request) => projects.listProjects(ctx, request.userId),
    );

    api.post(
      path,
      {
        onRequest: requireUser,
        preHandler: limitUploads,
        schema: {
          hide,
          tags: ['projects'],
          consumes: ['multipart/form-data'],
          description: 'Multipart: name (3-100 characters) and an optional image `file` (PNG, JPEG or WEBP, max 10MB).',
          response: { 200: CreateProjectResponse, 413: ErrorResponse, 415: ErrorResponse, ...errors },
        },
      },
      async (request) => {
        let file: UploadedFile | null = null;
        const fields = await walkMultipart(request, async (f) => {
          if (f.fieldname !== 'file' || file) throw unprocessable(VALIDATION.imageRequired);
          file = f;
        });
        return projects.createProject(ctx, request.userId, { fields, file });
      },
    );
  }

  api.get(
    '/projects/:id',
    { onRequest: requireUser, schema: { tags: ['projects'], params: IdParam, response: { 200: Project, ...errors } } },
    async (request) => projects.getProject(ctx, request.userId, request.params.id),
  );

  api.put(
    '/projects/:id',
    {
      onRequest: requireUser,
      schema: {
        tags: ['projects'],
        params: IdParam,
        body: UpdateProjectRequest,
        response: { 200: Project, ...errors },
      },
    },
    async (request) => projects.updateProject(ctx, request.userId, request.params.id, request.body),
  );

  api.delete(
    '/projects/:id',
    { onRequest: requireUser, schema: { tags: ['projects'], params: IdParam, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await projects.deleteProject(ctx, request.userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/projects/:id/selected-characters',
    {
      onRequest: requireUser,
      schema: {
        tags: ['projects'],
        params: IdParam,
        body: SelectedCharactersRequest,
        response: { 200: Project, ...errors },
      },
    },
    async (request) =>
      projects.setSelectedCharacters(ctx, request.userId, request.params.id, request.body.character_ids),
  );
};
