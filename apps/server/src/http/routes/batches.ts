import {
  BATCH_LIMITS,
  BATCH_TEMPLATE_CSV,
  Batch,
  BatchSummary,
  CreateBatchFields,
  ErrorResponse,
  PaymentRequiredBody,
  IdParam,
} from '@hookreel/contracts';
import { z } from 'zod';
import * as batches from '../../services/batches/index.ts';
import { unprocessable } from '../../errors.ts';
import { walkMultipart, type UploadedFile } from '../../uploads/index.ts';
import { IdempotencyHeaders, sendIdempotent } from '../idempotency.ts';
import { sendZip } from '../zip.ts';
import type { RouteModule } from './index.ts';

const tags = ['batches'];
const errors = { 401: ErrorResponse, 404: ErrorResponse, 422: ErrorResponse };

/** Batch from a spreadsheet (decision 138): check a CSV, confirm it, follow the batch, download the videos. */
export const batchRoutes: RouteModule = async (api, { ctx, requireUser, limitUploads }) => {
  api.get(
    '/batches/template.csv',
    { schema: { tags, description: 'The CSV template: the columns and two example rows.' } },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="hookreel-batch-template.csv"')
        .send(BATCH_TEMPLATE_CSV),
  );

  api.post(
    '/batches',
    {
      onRequest: requireUser,
      // Attached and fetched product images are stored like uploads: the same per-user budget.
      preHandler: limitUploads,
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description:
          `Multipart: the sheet as a \`csv\` text field or file, an optional \`name\`, and up to ` +
          `${BATCH_LIMITS.productFilesMax} product images (\`products\` files) named in the product column. ` +
          `Checks every row (errors by line and column) and fetches image addresses through the SSRF guard; ` +
          `nothing is spent until POST /batches/{id}/confirm.`,
        response: { 201: Batch, 413: ErrorResponse, 415: ErrorResponse, 429: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const files: UploadedFile[] = [];
      let csvFile: string | null = null;
      const fields = await walkMultipart(
        request,
        async (f) => {
          if (f.fieldname === 'csv' && csvFile === null) csvFile = f.buffer.toString('utf8');
          else files.push(f);
        },
        { maxFiles: BATCH_LIMITS.productFilesMax + 1 },
      );
      const parsed = CreateBatchFields.safeParse(fields);
      if (!parsed.success) throw unprocessable(parsed.error.issues[0]?.message ?? 'Invalid batch');
      const csv = csvFile ?? parsed.data.csv ?? '';
      const batch = await batches.createBatch(
        ctx,
        request.userId,
        { csv, name: parsed.data.name, files },
        ctx.remoteImageFetch,
      );
      return reply.status(201).send(batch);
    },
  );

  api.get(
    '/batches',
    { onRequest: requireUser, schema: { tags, response: { 200: z.array(BatchSummary), 401: ErrorResponse } } },
    async (request) => batches.listBatches(ctx, request.userId),
  );

  api.get(
    '/batches/:id',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        description: 'The rows with their errors and, once queued, each row’s job: poll it for progress.',
        response: { 200: Batch, ...errors },
      },
    },
    async (request) => batches.getBatch(ctx, request.userId, request.params.id),
  );

  api.post(
    '/batches/:id/confirm',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        headers: IdempotencyHeaders,
        description:
          'Queues every valid row as a video and holds one video’s credits per row, all or nothing (402 when short). ' +
          'Honours an Idempotency-Key header: a repeat with the same key queues nothing more.',
        response: { 200: Batch, 402: PaymentRequiredBody, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) =>
      sendIdempotent(ctx, request, reply, { ...request.params }, () =>
        batches.confirmBatch(ctx, request.userId, request.params.id),
      ),
  );

  api.get(
    '/batches/:id/download',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: IdParam,
        description: 'A zip of the finished videos and manifest.csv (one line per row).',
      },
    },
    async (request, reply) =>
      sendZip(ctx, request, reply, await batches.batchZipPlan(ctx, request.userId, request.params.id)),
  );
};
