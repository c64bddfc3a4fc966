import type { ServerResponse } from 'node:http';
import {
  ErrorResponse,
  EventsTicket,
  Job,
  LIMITS,
  PaymentRequiredBody,
  QueueJobResponse,
  UrlId,
  type JobEvent,
} from '@hookreel/contracts';
import { z } from 'zod';
import { deleteJob, findStreamedJobDto, getJob, listJobs } from '../../services/jobs/index.ts';
import { queueProjectVideo } from '../../services/projects/index.ts';
import { makeRealistic } from '../../services/realistic/index.ts';
import { HttpError, notFound } from '../../errors.ts';
import { IdempotencyHeaders, sendIdempotent } from '../idempotency.ts';
import type { RouteModule } from './index.ts';

/** A malformed or out-of-range id is simply a job that does not exist (with the jobs' own 404 wording). */
const IdParam = z.object({ id: z.string().max(20) });
const toId = (raw: string): number => {
  const parsed = UrlId.safeParse(raw);
  if (!parsed.success) throw notFound();
  return parsed.data;
};

const HEARTBEAT_MS = 15_000;
const EVENT_STREAMS_LIMITED = `At most ${LIMITS.eventStreamsPerUser} live job updates can be open at once for one account. Close a tab and try again.`;

/** Jobs (docs/product.md#jobs): the owner's video jobs, queueing a project render, deletion, and a live stream. */
export const jobRoutes: RouteModule = async (api, { ctx, requireUser, requireStreamUser }) => {
  const common = { tags: ['jobs'], security: [{ bearer: [] }] };

  for (const url of ['/jobs', '/jobs/']) {
    api.get(
      url,
      {
        preHandler: requireUser,
        schema: { ...common, hide: url === '/jobs', response: { 200: z.array(Job), 401: ErrorResponse } },
      },
      async (request) => listJobs(ctx, request.userId),
    );
  }

  /** A 60-second ticket that opens the job event stream (EventSource cannot send an Authorization header). */
  api.post(
    '/jobs/events/ticket',
    { preHandler: requireUser, schema: { ...common, response: { 200: EventsTicket, 401: ErrorResponse } } },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send({
        ticket: await ctx.tokens.signEventsTicket(request.userId),
        expires_in: ctx.tokens.eventsTicketTtlSec,
      }),
  );

  /**
   * Server-sent events: `{type:'job', job}` whenever one of the user's jobs changes, plus a comment every 15 s.
   * EventSource cannot set headers, so it opens the stream with `?ticket=` (above); other clients may send the
   * Authorization header. Never an access token in the URL.
   */
  const streams = new Set<ServerResponse>();
  // Open streams per user: each holds a socket, a subscription and a timer, so one account must not open 1,000.
  const openPerUser = new Map<number, number>();
  api.addHook('preClose', async () => {
    for (const res of streams) res.end();
    streams.clear();
  });
  api.get(
    '/jobs/events',
    {
      preHandler: requireStreamUser,
      schema: {
        ...common,
        querystring: z.object({ ticket: z.string().max(2048).optional() }),
        response: { 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const userId = request.userId;
      const open = openPerUser.get(userId) ?? 0;
      if (open >= LIMITS.eventStreamsPerUser) {
        throw new HttpError(429, EVENT_STREAMS_LIMITED, { 'retry-after': '30' });
      }
      openPerUser.set(userId, open + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      });
      res.write('retry: 3000\n\n');
      streams.add(res);
      // Events carry ids; reload each job so the stream always shows the row as it is now, in send order.
      let chain = Promise.resolve();
      const off = ctx.jobEvents.subscribe(userId, (jobId) => {
        chain = chain.then(async () => {
          const job = await findStreamedJobDto(ctx, userId, jobId).catch(() => null);
          if (!job || res.writableEnded) return;
          const event: JobEvent = { type: 'job', job };
          res.write(`event: job\ndata: ${JSON.stringify(event)}\n\n`);
        });
      });
      const beat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
      let counted = true;
      const cleanup = () => {
        clearInterval(beat);
        off();
        streams.delete(res);
        if (!counted) return;
        counted = false;
        const left = (openPerUser.get(userId) ?? 1) - 1;
        if (left > 0) openPerUser.set(userId, left);
        else openPerUser.delete(userId);
      };
      res.on('close', cleanup);
      res.on('error', cleanup);
    },
  );

  api.get(
    '/jobs/:id',
    {
      preHandler: requireUser,
      schema: { ...common, params: IdParam, response: { 200: Job, 401: ErrorResponse, 404: ErrorResponse } },
    },
    async (request) => getJob(ctx, request.userId, toId(request.params.id)),
  );

  /**
   * POST /jobs/:id/<verb>: queues one job paid from the caller's credits and answers 201 {id}; honours an
   * Idempotency-Key header (`fingerprint` names what a repeat must match beyond the route).
   */
  const queueingPost = (
    url: string,
    fingerprint: (id: number) => Record<string, unknown>,
    queue: (userId: number, id: number) => Promise<{ id: number }>,
  ) =>
    api.post(
      url,
      {
        preHandler: requireUser,
        schema: {
          ...common,
          params: IdParam,
          headers: IdempotencyHeaders,
          response: {
            200: QueueJobResponse,
            201: QueueJobResponse,
            401: ErrorResponse,
            402: PaymentRequiredBody,
            404: ErrorResponse,
            409: ErrorResponse,
            422: ErrorResponse,
          },
        },
      },
      async (request, reply) => {
        const id = toId(request.params.id);
        return sendIdempotent(ctx, request, reply, fingerprint(id), () => queue(request.userId, id), 201);
      },
    );

  /** {id} is a project id; queues one render paid with one video's credits (422 when Realistic cannot run it). */
  queueingPost(
    '/jobs/:id/queue',
    (projectId) => ({ projectId }),
    async (userId, projectId) => ({ id: (await queueProjectVideo(ctx, userId, projectId)).id }),
  );

  /**
   * {id} is a finished draft project or hook-pack video: renders it again through the providers as a new job,
   * holding the difference between the Realistic and the Draft price (409 while another upgrade of the same pack
   * video is queued, running or done).
   */
  queueingPost(
    '/jobs/:id/make-realistic',
    (jobId) => ({ jobId, makeRealistic: true }),
    (userId, jobId) => makeRealistic(ctx, userId, jobId),
  );

  api.delete(
    '/jobs/:id',
    {
      preHandler: requireUser,
      schema: { ...common, params: IdParam, response: { 204: z.null(), 401: ErrorResponse, 404: ErrorResponse } },
    },
    async (request, reply) => {
      await deleteJob(ctx, request.userId, toId(request.params.id));
      return reply.status(204).send(null);
    },
  );
};
