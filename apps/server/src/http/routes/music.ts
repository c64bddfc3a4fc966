import { HookPack, MUSIC_LIMITS, Project } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import * as packStyle from '../../services/hook-packs/index.ts';
import * as style from '../../services/projects/index.ts';
import { MUSIC_MESSAGES } from '../../services/video/index.ts';
import { audioClearOptions, audioPart, audioUploadOptions } from './audio-upload.ts';
import type { RouteModule } from './index.ts';

const description = 'Multipart: `music` (MP3, WAV or M4A, max 20MB, at most 10 minutes); replaces any earlier one.';

/** The one `music` file of a multipart body, with the 20 MB cap enforced while reading. */
const musicPart = (request: FastifyRequest) => audioPart(request, 'music', MUSIC_LIMITS.maxBytes, MUSIC_MESSAGES);

/** The optional music bed of a project or a hook pack (docs/video-design.md#sound). */
export const musicRoutes: RouteModule = async (api, deps) => {
  const { ctx } = deps;
  api.put('/projects/:id/music', audioUploadOptions(deps, 'projects', description, Project), async (request) =>
    style.setProjectMusic(ctx, request.userId, request.params.id, await musicPart(request)),
  );
  api.delete('/projects/:id/music', audioClearOptions(deps, 'projects', Project), async (request) =>
    style.clearProjectMusic(ctx, request.userId, request.params.id),
  );
  api.put('/hooks/:id/music', audioUploadOptions(deps, 'hook-packs', description, HookPack), async (request) =>
    packStyle.setPackMusic(ctx, request.userId, request.params.id, await musicPart(request)),
  );
  api.delete(
    '/hooks/:id/music',
    // Clearing a pack's music has always counted against the upload budget too.
    { ...audioClearOptions(deps, 'hook-packs', HookPack), preHandler: deps.limitUploads },
    async (request) => packStyle.clearPackMusic(ctx, request.userId, request.params.id),
  );
};
