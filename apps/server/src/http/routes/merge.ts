import {
  AvatarWithStatus,
  CutoutCheckJobResponse,
  ErrorResponse,
  Project,
  MergeResult,
  MergeSingleFields,
  MergeSingleResponse,
  UrlId,
  VALIDATION,
  PaymentRequiredBody,
} from '@hookreel/contracts';
import { z } from 'zod';
import * as merge from '../../services/merge/index.ts';
import { walkMultipart, type UploadedFile } from '../../uploads/index.ts';
import { unprocessable } from '../../errors.ts';
import { IdempotencyHeaders, sendIdempotent } from '../idempotency.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 402: PaymentRequiredBody, 404: ErrorResponse, 422: ErrorResponse };
const paid = { ...errors, 409: ErrorResponse };
const ProjectIdParam = z.object({ projectId: UrlId });

/** Product in hand: merge the product into an actor's hand, read merge states, queue one video per actor. */
export const mergeRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.post(
    '/merge/single',
    {
      onRequest: requireUser,
      preHandler: limitUploads,
      schema: {
        tags: ['product-in-hand'],
        consumes: ['multipart/form-data'],
        description: 'Multipart: project_id, character_id, mask_data (JSON placement), mask_file (mask.png).',
        headers: IdempotencyHeaders,
        response: { 200: MergeSingleResponse, 413: ErrorResponse, 415: ErrorResponse, ...paid },
      },
    },
    async (request, reply) => {
      let mask: UploadedFile | null = null;
      const fields = await walkMultipart(request, async (f) => {
        if (f.fieldname !== 'mask_file' || mask) throw unprocessable(VALIDATION.imageRequired);
        mask = f;
      });
      const parsed = MergeSingleFields.parse(fields);
      const maskFile = mask as UploadedFile | null; // assigned in the callback above; TS narrows it to null
      return sendIdempotent(ctx, request, reply, { fields, mask: maskFile?.buffer }, () =>
        merge.mergeSingle(ctx, request.userId, {
          projectId: parsed.project_id,
          avatarId: parsed.character_id,
          placement: parsed.mask_data,
          mask: maskFile,
        }),
      );
    },
  );

  api.post(
    '/merge/cutout-check/:projectId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['product-in-hand'],
        description: 'Free: queues the job that makes and checks the product cut-out (decision 214).',
        params: ProjectIdParam,
        response: { 200: CutoutCheckJobResponse, ...errors },
      },
    },
    async (request) => merge.checkProjectCutout(ctx, request.userId, request.params.projectId),
  );

  api.post(
    '/merge/accept-cutout/:projectId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['product-in-hand'],
        description: 'Use a product cut-out that needs review as it is (decision 214).',
        params: ProjectIdParam,
        response: { 200: Project, 409: ErrorResponse, ...errors },
      },
    },
    async (request) => merge.acceptProjectCutout(ctx, request.userId, request.params.projectId),
  );

  api.get(
    '/merge/avatars-with-status/:projectId',
    {
      onRequest: requireUser,
      schema: {
        tags: ['product-in-hand'],
        params: ProjectIdParam,
        response: { 200: z.array(AvatarWithStatus), ...errors },
      },
    },
    async (request) => merge.avatarsWithStatus(ctx, request.userId, request.params.projectId),
  );

  api.post(
    '/jobs/product-in-hand/:projectId/queue-videos',
    {
      onRequest: requireUser,
      schema: {
        tags: ['product-in-hand'],
        params: ProjectIdParam,
        headers: IdempotencyHeaders,
        response: { 200: MergeResult, ...paid },
      },
    },
    async (request, reply) =>
      sendIdempotent(ctx, request, reply, request.params, () =>
        merge.queueProductInHandVideos(ctx, request.userId, request.params.projectId),
      ),
  );
};
