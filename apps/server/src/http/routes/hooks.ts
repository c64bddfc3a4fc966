import {
  LIMITS,
  AddPackCreatorRequest,
  CharacterType,
  CharacterTypesBatch,
  CreateHookPackRequest,
  ErrorResponse,
  GenerateCharactersQuery,
  GeneratedCharacter,
  GeneratePreviewJson,
  HookPack,
  HookPackIdQuery,
  HookPackSummary,
  HookLinesResponse,
  IdParam,
  Job,
  PreviewCharacter,
  QueueHookPackVideosRequest,
  QueueHookPackVideosResponse,
  RegenerateQuery,
  SelectedQuery,
  UpdateHookPackRequest,
  UpdatePreviewRequest,
  VALIDATION,
  PaymentRequiredBody,
} from '@hookreel/contracts';
import { sendZip } from '../zip.ts';
import { z } from 'zod';
import * as hooks from '../../services/hook-packs/index.ts';
import { walkMultipart, type UploadedFile } from '../../uploads/index.ts';
import { unprocessable } from '../../errors.ts';
import { IdempotencyHeaders, sendIdempotent } from '../idempotency.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 404: ErrorResponse, 422: ErrorResponse };
/** Credit-spending calls: 402 when short, 409 when an Idempotency-Key is reused for another request. */
const paid = { ...errors, 402: PaymentRequiredBody, 409: ErrorResponse };
const tags = ['hook-packs'];

const GenerateCharactersResponse = z.object({
  job_id: z.number().int(),
  hook_pack_id: z.number().int(),
  characters: z.array(GeneratedCharacter),
});
const ProcessProductResponse = z.object({ job_id: z.number().int(), hook_pack_id: z.number().int() });
const UploadProductResponse = z.object({ product_url: z.string(), hook_pack_id: z.number().int() });
/** select-character: `selected` sets the selection; without it the selection toggles. */
const SelectCharacterQuery = z.object({ selected: z.enum(['true', 'false']).optional() });

/**
 * Hook packs (docs/product.md#hook-packs; and the two hook-pack jobs calls). Thin: parse, call the service, answer.
 * Ownership, credits and every rule live in services/hook-packs/.
 */
export const hookRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  for (const path of ['/hooks', '/hooks/']) {
    const hide = path === '/hooks/';
    api.get(
      path,
      {
        onRequest: requireUser,
        schema: { hide, tags, response: { 200: z.array(HookPackSummary), 401: ErrorResponse } },
      },
      async (request) => hooks.listPacks(ctx, request.userId),
    );
    api.post(
      path,
      {
        onRequest: requireUser,
        schema: { hide, tags, body: CreateHookPackRequest, response: { 200: HookPack, ...errors } },
      },
      async (request) => hooks.createPack(ctx, request.userId, request.body),
    );
  }

  api.get(
    '/hooks/:id',
    { onRequest: requireUser, schema: { tags, params: IdParam, response: { 200: HookPack, ...errors } } },
    async (request) => hooks.getPack(ctx, request.userId, request.params.id),
  );

  api.get(
    '/hooks/:id/hook-lines',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        querystring: z.object({ hook: z.string().max(LIMITS.hookTextMax).optional() }),
        response: {
          200: HookLinesResponse,
          ...errors,
        },
        description:
          'The 12 hook lines for the pack, one per hook angle: the hook first, then rewrites (model when configured).',
      },
    },
    async (request) => hooks.suggestHookLines(ctx, request.userId, request.params.id, request.query.hook),
  );

  api.put(
    '/hooks/:id',
    {
      onRequest: requireUser,
      schema: { tags, params: IdParam, body: UpdateHookPackRequest, response: { 200: HookPack, ...errors } },
    },
    async (request) => hooks.updatePack(ctx, request.userId, request.params.id, request.body),
  );

  api.delete(
    '/hooks/:id',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        response: { 204: z.null(), 409: ErrorResponse, ...errors },
        description: 'Discards a draft pack that has no product yet (409 once it holds any work).',
      },
    },
    async (request, reply) => {
      await hooks.discardDraftPack(ctx, request.userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/hooks/upload-product',
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description: 'Multipart: hook_pack_id and product_image (PNG, JPEG or WEBP, max 10MB).',
        response: { 200: UploadProductResponse, 413: ErrorResponse, 415: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      let file: UploadedFile | null = null;
      const fields = await walkMultipart(request, async (f) => {
        if (f.fieldname !== 'product_image' || file) throw unprocessable(VALIDATION.imageRequired);
        file = f;
      });
      return hooks.uploadProduct(ctx, request.userId, fields, file);
    },
  );

  api.post(
    '/hooks/process-step1',
    {
      onRequest: requireUser,
      schema: { tags, querystring: HookPackIdQuery, response: { 200: ProcessProductResponse, ...errors } },
    },
    async (request) => hooks.processProduct(ctx, request.userId, request.query.hook_pack_id),
  );

  api.post(
    '/hooks/:id/accept-cutout',
    {
      onRequest: requireUser,
      schema: { tags, params: IdParam, response: { 200: HookPack, 409: ErrorResponse, ...errors } },
    },
    async (request) => hooks.acceptCutout(ctx, request.userId, request.params.id),
  );

  api.post(
    '/hooks/character-types/batch',
    {
      onRequest: requireUser,
      schema: {
        tags,
        querystring: HookPackIdQuery,
        body: CharacterTypesBatch,
        response: { 200: z.array(CharacterType), ...errors },
      },
    },
    async (request) => hooks.saveCharacterTypes(ctx, request.userId, request.query.hook_pack_id, request.body),
  );

  api.post(
    '/hooks/generate-characters',
    {
      onRequest: requireUser,
      schema: {
        tags,
        querystring: GenerateCharactersQuery,
        headers: IdempotencyHeaders,
        response: { 200: GenerateCharactersResponse, ...paid },
      },
    },
    async (request, reply) =>
      sendIdempotent(ctx, request, reply, request.query, () =>
        hooks.generateCharacters(ctx, request.userId, request.query),
      ),
  );

  api.get(
    '/hooks/characters/:id',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        querystring: SelectedQuery,
        response: { 200: z.array(GeneratedCharacter), ...errors },
      },
    },
    async (request) => hooks.listCharacters(ctx, request.userId, request.params.id, request.query.selected),
  );

  api.post(
    '/hooks/:id/creators',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "Add one of the caller's own creators to the pack as a (selected) photo character",
        params: IdParam,
        body: AddPackCreatorRequest,
        response: { 200: GeneratedCharacter, ...errors },
      },
    },
    async (request) => hooks.addCreatorToPack(ctx, request.userId, request.params.id, request.body.creator_id),
  );

  api.post(
    '/hooks/select-character/:id',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        querystring: SelectCharacterQuery,
        response: { 200: GeneratedCharacter, ...errors },
      },
    },
    async (request) =>
      hooks.selectCharacter(
        ctx,
        request.userId,
        request.params.id,
        request.query.selected === undefined ? undefined : request.query.selected === 'true',
      ),
  );

  api.post(
    '/hooks/generate-preview',
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags,
        description:
          'JSON {hook_pack_id, character_ids} (automatic placement in the hand area), or multipart {hook_pack_id, ' +
          'generated_character_id, mask_image, position_x, position_y, scale, rotation} (placement from the editor).',
        headers: IdempotencyHeaders,
        response: { 200: z.array(PreviewCharacter), 413: ErrorResponse, 415: ErrorResponse, ...paid },
      },
    },
    async (request, reply) => {
      if (request.isMultipart()) {
        let mask: UploadedFile | null = null;
        const fields = await walkMultipart(request, async (f) => {
          if (f.fieldname !== 'mask_image' || mask) throw unprocessable(VALIDATION.imageRequired);
          mask = f;
        });
        const maskFile = mask as UploadedFile | null; // assigned in the callback above; TS narrows it to null
        return sendIdempotent(ctx, request, reply, { fields, mask: maskFile?.buffer }, () =>
          hooks.generatePreviewFromEditor(ctx, request.userId, fields, maskFile),
        );
      }
      const body = GeneratePreviewJson.parse(request.body ?? {});
      return sendIdempotent(ctx, request, reply, body, () => hooks.generatePreviewsAuto(ctx, request.userId, body));
    },
  );

  api.put(
    '/hooks/preview/:id',
    {
      onRequest: requireUser,
      schema: { tags, params: IdParam, body: UpdatePreviewRequest, response: { 200: PreviewCharacter, ...errors } },
    },
    async (request) => hooks.updatePreview(ctx, request.userId, request.params.id, request.body),
  );

  api.post(
    '/hooks/preview/:id/regenerate',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        querystring: RegenerateQuery,
        headers: IdempotencyHeaders,
        response: { 200: PreviewCharacter, ...paid },
      },
    },
    async (request, reply) =>
      sendIdempotent(ctx, request, reply, { ...request.params, ...request.query }, () =>
        hooks.regeneratePreview(ctx, request.userId, request.params.id, request.query.reason),
      ),
  );

  api.post(
    '/jobs/hook-pack/:id/queue-videos',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        body: QueueHookPackVideosRequest.nullish(),
        headers: IdempotencyHeaders,
        response: { 200: QueueHookPackVideosResponse, ...paid },
      },
    },
    async (request, reply) =>
      sendIdempotent(ctx, request, reply, { ...request.params, body: request.body ?? {} }, () =>
        hooks.queueVideos(ctx, request.userId, request.params.id, request.body ?? {}),
      ),
  );

  api.get(
    '/jobs/hook-pack/:id/jobs',
    { onRequest: requireUser, schema: { tags, params: IdParam, response: { 200: z.array(Job), ...errors } } },
    async (request) => hooks.listPackJobs(ctx, request.userId, request.params.id),
  );

  api.get(
    '/hooks/:id/download',
    {
      onRequest: requireUser,
      schema: { tags, params: IdParam, description: 'A zip of the MP4s, their SRT and VTT captions and manifest.csv.' },
    },
    async (request, reply) => {
      const plan = await hooks.downloadPlan(ctx, request.userId, request.params.id);
      return sendZip(ctx, request, reply, plan);
    },
  );
};
