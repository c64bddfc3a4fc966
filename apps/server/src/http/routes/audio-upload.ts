import { ErrorResponse, IdParam, type HookPack, type Project } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import { payloadTooLarge } from '../../errors.ts';
import { singleFilePart, type UploadedFile } from '../../uploads/index.ts';
import type { App } from '../types.ts';
import type { RouteDeps } from './index.ts';

/** What a route storing or clearing an audio file answers besides its 200. */
const errors = { 401: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 422: ErrorResponse };

/** The one audio file of a multipart body under `field`, with its size cap enforced while reading. */
export const audioPart = (
  request: FastifyRequest,
  field: string,
  maxBytes: number,
  messages: { broken: string; tooLarge: string },
) =>
  singleFilePart(request, field, messages.broken, {
    fileSize: maxBytes,
    tooLarge: () => payloadTooLarge(messages.tooLarge),
  });

/**
 * One audio file (music, a voice-over) of the project or hook pack `:id` at `path`: PUT stores the file `part` reads
 * (within the user's upload budget, issue #33), DELETE clears it; both answer `owner`.
 */
export function audioFileRoutes(
  api: App,
  { requireUser, limitUploads }: RouteDeps,
  route: {
    path: string;
    tag: string;
    description: string;
    owner: typeof Project | typeof HookPack;
    part: (request: FastifyRequest) => Promise<UploadedFile | null>;
    set: (userId: number, id: number, file: UploadedFile | null) => Promise<Project | HookPack>;
    clear: (userId: number, id: number) => Promise<Project | HookPack>;
    /** Clearing counts against the upload budget too (as a hook pack's music always has). */
    clearIsAnUpload?: boolean;
  },
): void {
  const response = { 200: route.owner, ...errors };
  api.put(
    route.path,
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags: [route.tag],
        consumes: ['multipart/form-data'],
        description: route.description,
        params: IdParam,
        response,
      },
    },
    async (request) => route.set(request.userId, request.params.id, await route.part(request)),
  );
  api.delete(
    route.path,
    {
      onRequest: requireUser,
      ...(route.clearIsAnUpload ? { preHandler: limitUploads } : {}),
      schema: { tags: [route.tag], params: IdParam, response },
    },
    async (request) => route.clear(request.userId, request.params.id),
  );
}
