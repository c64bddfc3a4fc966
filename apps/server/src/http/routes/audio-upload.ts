import { ErrorResponse, IdParam } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { payloadTooLarge } from '../../errors.ts';
import { singleFilePart } from '../../uploads/index.ts';
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

/** A PUT that stores one audio file (music, voice-over) on the project or hook pack `:id`, answering `owner`. */
export const audioUploadOptions = <T extends z.ZodTypeAny>(
  { requireUser, limitUploads }: RouteDeps,
  tag: string,
  description: string,
  owner: T,
) => ({
  onRequest: requireUser,
  // The same per-user upload budget as every other upload route (issue #33).
  preHandler: limitUploads,
  schema: {
    tags: [tag],
    consumes: ['multipart/form-data'],
    description,
    params: IdParam,
    response: { 200: owner, ...errors },
  },
});

/** A DELETE that clears that audio file, answering `owner`. */
export const audioClearOptions = <T extends z.ZodTypeAny>({ requireUser }: RouteDeps, tag: string, owner: T) => ({
  onRequest: requireUser,
  schema: { tags: [tag], params: IdParam, response: { 200: owner, ...errors } },
});
