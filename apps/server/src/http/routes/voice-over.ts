import { ErrorResponse, IdParam, Project, VOICE_OVER_LIMITS } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import { payloadTooLarge } from '../../errors.ts';
import * as voiceOver from '../../services/projects/index.ts';
import { singleFilePart } from '../../uploads/index.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 422: ErrorResponse };
const description =
  `Multipart: \`voice_over\` (MP3, WAV or M4A, max ${VOICE_OVER_LIMITS.maxBytes / 1024 / 1024}MB, ` +
  `${VOICE_OVER_LIMITS.minDurationSec} s to ${VOICE_OVER_LIMITS.maxDurationSec / 60} minutes); replaces any earlier ` +
  'one and makes it the voice. The script is timed against it; the video is as long as the recording.';

/** The one `voice_over` file of a multipart body, with the size cap enforced while reading. */
const voiceOverPart = (request: FastifyRequest) =>
  singleFilePart(request, 'voice_over', voiceOver.VOICE_OVER_MESSAGES.broken, {
    fileSize: VOICE_OVER_LIMITS.maxBytes,
    tooLarge: () => payloadTooLarge(voiceOver.VOICE_OVER_MESSAGES.tooLarge),
  });

/** A project's own voice-over (docs/product.md#own-voice-over). */
export const voiceOverRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.put(
    '/projects/:id/voice-over',
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
    async (request) =>
      voiceOver.setProjectVoiceOver(ctx, request.userId, request.params.id, await voiceOverPart(request)),
  );
  api.delete(
    '/projects/:id/voice-over',
    { onRequest: requireUser, schema: { tags: ['projects'], params: IdParam, response: { 200: Project, ...errors } } },
    async (request) => voiceOver.clearProjectVoiceOver(ctx, request.userId, request.params.id),
  );
};
