import { Project, VOICE_OVER_LIMITS } from '@hookreel/contracts';
import * as voiceOver from '../../services/projects/index.ts';
import { audioFileRoutes, audioPart } from './audio-upload.ts';
import type { RouteModule } from './index.ts';

const description =
  `Multipart: \`voice_over\` (MP3, WAV or M4A, max ${VOICE_OVER_LIMITS.maxBytes / 1024 / 1024}MB, ` +
  `${VOICE_OVER_LIMITS.minDurationSec} s to ${VOICE_OVER_LIMITS.maxDurationSec / 60} minutes); replaces any earlier ` +
  'one and makes it the voice. The script is timed against it; the video is as long as the recording.';

/** A project's own voice-over (docs/product.md#own-voice-over). */
export const voiceOverRoutes: RouteModule = async (api, deps) => {
  const { ctx } = deps;
  audioFileRoutes(api, deps, {
    path: '/projects/:id/voice-over',
    tag: 'projects',
    description,
    owner: Project,
    // The one `voice_over` file of a multipart body, with the size cap enforced while reading.
    part: (request) => audioPart(request, 'voice_over', VOICE_OVER_LIMITS.maxBytes, voiceOver.VOICE_OVER_MESSAGES),
    set: (userId, id, file) => voiceOver.setProjectVoiceOver(ctx, userId, id, file),
    clear: (userId, id) => voiceOver.clearProjectVoiceOver(ctx, userId, id),
  });
};
