import { createReadStream } from 'node:fs';
import { BrandKit, CaptionFont, ErrorResponse, UpdateBrandKitRequest } from '@hookreel/contracts';
import { z } from 'zod';
import * as brandKit from '../../services/video/index.ts';
import { singleFilePart } from '../../uploads/index.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse, 422: ErrorResponse };

/** The signed-in user's brand kit (docs/video-design.md#brand-kit): read, save, and its logo. */
export const brandKitRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.get(
    '/brand-kit',
    { onRequest: requireUser, schema: { tags: ['brand-kit'], response: { 200: BrandKit, 401: ErrorResponse } } },
    async (request) => brandKit.getBrandKit(ctx, request.userId),
  );

  api.put(
    '/brand-kit',
    {
      onRequest: requireUser,
      schema: {
        tags: ['brand-kit'],
        description: 'Saves the kit (everything but the logo). New projects and hook packs start from it.',
        body: UpdateBrandKitRequest,
        response: { 200: BrandKit, ...errors },
      },
    },
    async (request) => brandKit.updateBrandKit(ctx, request.userId, request.body),
  );

  api.put(
    '/brand-kit/logo',
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags: ['brand-kit'],
        consumes: ['multipart/form-data'],
        description: 'Multipart: `logo` (PNG or WEBP, max 10MB); replaces any earlier logo.',
        response: { 200: BrandKit, ...errors },
      },
    },
    async (request) => {
      const file = await singleFilePart(request, 'logo', 'Send one file in the `logo` field');
      return brandKit.setLogo(ctx, request.userId, file);
    },
  );

  api.delete(
    '/brand-kit/logo',
    { onRequest: requireUser, schema: { tags: ['brand-kit'], response: { 200: BrandKit, 401: ErrorResponse } } },
    async (request) => brandKit.deleteLogo(ctx, request.userId),
  );

  // The font files the engine draws captions with, so the settings preview shows the same letters. They are
  // open-licence files from Debian packages, public like the web app's own assets.
  api.get(
    '/brand-kit/fonts/:font',
    {
      schema: {
        tags: ['brand-kit'],
        description: 'The TrueType file of a caption font (font/ttf).',
        params: z.object({ font: CaptionFont }),
      },
    },
    async (request, reply) => {
      const file = brandKit.captionFontFile(request.params.font);
      return reply
        .header('content-type', 'font/ttf')
        .header('cache-control', 'public, max-age=86400')
        .send(createReadStream(file));
    },
  );
};
