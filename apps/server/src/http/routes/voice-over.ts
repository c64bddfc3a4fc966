import { Project, VOICE_OVER_LIMITS } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import * as voiceOver from '../../services/projects/index.ts';
import { audioClearOptions, audioPart, audioUploadOptions } from './audio-upload.ts';
import type { RouteModule } from './index.ts';

const description =
  `Multipart: \`voice_over\` (MP3, WAV or M4A, max ${VOICE_OVER_LIMITS.maxBytes / 1024 / 1024}MB, ` +
  `${VOICE_OVER_LIMITS.minDurationSec} s to ${VOICE_OVER_LIMITS.maxDurationSec / 60} minutes); replaces any earlier ` +
  'one and makes it the voice. The script is timed against it; the video is as long as the recording.';

/** The one `voice_over` file of a multipart body, with the size cap enforced while reading. */
const voiceOverPart = (request: FastifyRequest) =>
  audioPart(request, 'voice_over', VOICE_OVER_LIMITS.maxBytes, voiceOver.VOICE_OVER_MESSAGES);

/** A project's own voice-over (docs/product.md#own-voice-over). */
export const voiceOverRoutes: RouteModule = async (api, deps) => {
  const { ctx } = deps;
  api.put('/projects/:id/voice-over', audioUploadOptions(deps, 'projects', description, Project), async (request) =>
    voiceOver.setProjectVoiceOver(ctx, request.userId, request.params.id, await voiceOverPart(request)),
  );
  api.delete('/projects/:id/voice-over', audioClearOptions(deps, 'projects', Project), async (request) =>
    voiceOver.clearProjectVoiceOver(ctx, request.userId, request.params.id),
  );
};
