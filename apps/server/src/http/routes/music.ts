import { HookPack, MUSIC_LIMITS, Project } from '@hookreel/contracts';
import type { FastifyRequest } from 'fastify';
import * as packStyle from '../../services/hook-packs/index.ts';
import * as style from '../../services/projects/index.ts';
import { MUSIC_MESSAGES } from '../../services/video/index.ts';
import { audioFileRoutes, audioPart } from './audio-upload.ts';
import type { RouteModule } from './index.ts';

const description = 'Multipart: `music` (MP3, WAV or M4A, max 20MB, at most 10 minutes); replaces any earlier one.';

/** The one `music` file of a multipart body, with the 20 MB cap enforced while reading. */
const part = (request: FastifyRequest) => audioPart(request, 'music', MUSIC_LIMITS.maxBytes, MUSIC_MESSAGES);

/** The optional music bed of a project or a hook pack (docs/video-design.md#sound). */
export const musicRoutes: RouteModule = async (api, deps) => {
  const { ctx } = deps;
  audioFileRoutes(api, deps, {
    path: '/projects/:id/music',
    tag: 'projects',
    description,
    owner: Project,
    part,
    set: (userId, id, file) => style.setProjectMusic(ctx, userId, id, file),
    clear: (userId, id) => style.clearProjectMusic(ctx, userId, id),
  });
  audioFileRoutes(api, deps, {
    path: '/hooks/:id/music',
    tag: 'hook-packs',
    description,
    owner: HookPack,
    part,
    set: (userId, id, file) => packStyle.setPackMusic(ctx, userId, id, file),
    clear: (userId, id) => packStyle.clearPackMusic(ctx, userId, id),
    clearIsAnUpload: true,
  });
};
