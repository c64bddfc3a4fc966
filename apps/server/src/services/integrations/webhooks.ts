import { randomUUID } from 'node:crypto';
import {
  INTEGRATION_LIMITS,
  INTEGRATION_MESSAGES,
  type CreatedWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository } from '../../db/repositories/hook-packs.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { webhooksRepository, type WebhookEndpointRow } from '../../db/repositories/webhooks.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import type { EndedJob } from '../../jobs/hooks.ts';
import { checkedAddress, parseFetchUrl, SafeFetchError, systemResolver } from '../../net/safe-fetch.ts';
import { createJob, submitJobs, withEstimates } from '../jobs/index.ts';
import { newWebhookSecret } from './webhook-signature.ts';
import { deliverWebhookJob, WEBHOOK_MAX_ATTEMPTS } from './webhooks.jobs.ts';

/**
 * Webhooks (decision 132): a user's https endpoints hear, signed, when a video job or a whole pack of videos
 * finishes or fails. Each event becomes one delivery row per endpoint and one `deliver-webhook` job that retries
 * it for about a day, in the runner's background lane (never in the renders' slots). An endpoint holds at most
 * INTEGRATION_LIMITS.webhookPendingPerEndpoint waiting deliveries (more are logged as not sent), and one that
 * fails webhookPauseAfterFailures attempts in a row is paused and its owner mailed until they resume it (issue #33).
 */

const endpointDto = (r: WebhookEndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  created_at: r.created_at,
  paused_at: r.paused_at,
});

/**
 * The URL as it will be called, or a 422 people understand: https only (a local fake on a test-only origin
 * excepted), and a host that resolves to public addresses now (it is checked again on every delivery).
 */
async function acceptableUrl(ctx: AppContext, raw: string): Promise<string> {
  const testOrigins = ctx.config.webhookTestOrigins;
  let url: URL;
  try {
    url = parseFetchUrl(raw);
  } catch {
    throw unprocessable(INTEGRATION_MESSAGES.webhookUrlInvalid);
  }
  const testOnly = testOrigins.includes(url.origin);
  if (url.protocol !== 'https:' && !testOnly) throw unprocessable(INTEGRATION_MESSAGES.webhookUrlHttps);
  try {
    await checkedAddress(url, systemResolver, testOrigins);
  } catch (err) {
    if (err instanceof SafeFetchError && err.code === 'forbidden_address') {
      throw unprocessable(INTEGRATION_MESSAGES.webhookUrlNotPublic);
    }
    throw unprocessable(err instanceof SafeFetchError ? err.message : INTEGRATION_MESSAGES.webhookUrlInvalid);
  }
  return url.href;
}

export async function listWebhookEndpoints(ctx: AppContext, userId: number): Promise<WebhookEndpoint[]> {
  return (await webhooksRepository.listEndpoints(ctx.db.kysely, userId)).map(endpointDto);
}

export async function createWebhookEndpoint(
  ctx: AppContext,
  userId: number,
  rawUrl: string,
): Promise<CreatedWebhookEndpoint> {
  const url = await acceptableUrl(ctx, rawUrl);
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const existing = await webhooksRepository.listEndpoints(trx, userId);
    if (existing.length >= INTEGRATION_LIMITS.webhookEndpointsPerUser) {
      throw conflict(INTEGRATION_MESSAGES.webhookEndpointsLimit);
    }
    const row = await webhooksRepository.insertEndpoint(trx, { userId, url, secret: newWebhookSecret() });
    return { ...endpointDto(row), secret: row.secret };
  });
}

export async function deleteWebhookEndpoint(ctx: AppContext, userId: number, id: number): Promise<void> {
  if (!(await webhooksRepository.deleteEndpoint(ctx.db.kysely, userId, id))) throw notFound();
}

/** The owner's "Resume" on a paused endpoint: deliveries go out again, starting from new events. */
export async function resumeWebhookEndpoint(ctx: AppContext, userId: number, id: number): Promise<WebhookEndpoint> {
  const row = await webhooksRepository.resumeEndpoint(ctx.db.kysely, userId, id);
  if (!row) throw notFound();
  return endpointDto(row);
}

export async function listWebhookDeliveries(ctx: AppContext, userId: number): Promise<WebhookDelivery[]> {
  const rows = await webhooksRepository.listDeliveries(ctx.db.kysely, userId, INTEGRATION_LIMITS.webhookLogSize);
  return rows.map((r) => ({
    id: r.id,
    endpoint_id: r.endpoint_id,
    url: r.url,
    event_id: r.event_id,
    event_type: r.event_type as WebhookEventType,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: r.created_at,
    last_attempt_at: r.last_attempt_at,
    next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
  }));
}

const newEvent = (type: WebhookEventType, data: WebhookEvent['data']): WebhookEvent => ({
  id: `evt_${randomUUID().replace(/-/g, '')}`,
  type,
  created_at: new Date().toISOString(),
  data,
});

/**
 * Queues `event` for each endpoint (or the one given) under `subject`: a subject already delivered to an
 * endpoint is skipped, so two finishers of one pack send one event. Returns the new delivery ids.
 */
async function queueEvent(
  ctx: AppContext,
  userId: number,
  endpoints: WebhookEndpointRow[],
  subject: string,
  event: WebhookEvent,
): Promise<number[]> {
  const payload = JSON.stringify(event);
  const { deliveryIds } = await submitJobs(ctx, userId, async (trx) => {
    const deliveryIds: number[] = [];
    const jobIds: number[] = [];
    for (const endpoint of endpoints) {
      // A paused endpoint, or one with a full backlog, gets the event in its log as not sent, and no job.
      const notSent = endpoint.paused_at
        ? INTEGRATION_MESSAGES.webhookEndpointPaused
        : (await webhooksRepository.pendingCount(trx, endpoint.id)) >= INTEGRATION_LIMITS.webhookPendingPerEndpoint
          ? INTEGRATION_MESSAGES.webhookDropped
          : undefined;
      const deliveryId = await webhooksRepository.insertDeliveryOnce(trx, {
        endpointId: endpoint.id,
        userId,
        eventId: event.id,
        eventType: event.type,
        subject,
        payload,
        notSent,
      });
      if (deliveryId === null) continue;
      deliveryIds.push(deliveryId);
      if (notSent) continue;
      jobIds.push(
        await createJob(trx, deliverWebhookJob, {
          userId,
          payload: { deliveryId },
          projectName: `Webhook ${event.type}`,
          maxAttempts: WEBHOOK_MAX_ATTEMPTS,
        }),
      );
    }
    return { jobIds, deliveryIds };
  });
  return deliveryIds;
}

/** "Send test": a `webhook.test` event to one of the user's endpoints, through the same queue and signature. */
export async function sendTestWebhook(ctx: AppContext, userId: number, endpointId: number) {
  const endpoint = await webhooksRepository.findEndpoint(ctx.db.kysely, userId, endpointId);
  if (!endpoint) throw notFound();
  if (endpoint.paused_at) throw conflict(INTEGRATION_MESSAGES.webhookPausedTest);
  const event = newEvent('webhook.test', { message: 'This is a test event from Hookreel.' });
  const [deliveryId] = await queueEvent(ctx, userId, [endpoint], `test:${event.id}`, event);
  return { delivery_id: deliveryId! };
}

/**
 * Called by the job runner after any job ends: a finished video job sends `job.completed`/`job.failed`, and
 * the last video of a pack's batch to finish sends `pack.completed` (at least one video made) or `pack.failed`.
 */
export async function emitJobEndedEvents(ctx: AppContext, ended: EndedJob): Promise<void> {
  if (!ctx.jobs.videoJobNames.includes(ended.name)) return;
  const db = ctx.db.kysely;
  const endpoints = await webhooksRepository.listEndpoints(db, ended.userId);
  if (endpoints.length === 0) return;
  const row = await jobsRepository.findOwned(db, ended.userId, ended.id);
  if (!row) return;
  const [dto] = await withEstimates(ctx, [row]);
  const job = {
    id: row.id,
    status: ended.status,
    project_name: row.project_name,
    project_id: row.project_id,
    hook_pack_id: row.hook_pack_id,
    video_url: ended.status === 'completed' ? (dto?.video_url ?? null) : null,
    error: ended.status === 'failed' ? row.error : null,
    finished_at: row.finished_at,
  };
  await queueEvent(ctx, ended.userId, endpoints, `job:${row.id}`, newEvent(`job.${ended.status}`, { job }));

  if (row.hook_pack_id === null || !row.batch_id) return;
  const batch = (await jobsRepository.batchJobs(db, row.batch_id)).filter(
    (j) => j.hook_pack_id === row.hook_pack_id && ctx.jobs.videoJobNames.includes(j.name),
  );
  if (batch.some((j) => j.status !== 'completed' && j.status !== 'failed')) return;
  const pack = await hookPacksRepository.findOwned(db, ended.userId, row.hook_pack_id);
  if (!pack) return;
  const completed = batch.filter((j) => j.status === 'completed').length;
  const status = completed > 0 ? 'completed' : 'failed';
  await queueEvent(
    ctx,
    ended.userId,
    endpoints,
    `pack:${pack.id}:batch:${row.batch_id}`,
    newEvent(`pack.${status}`, {
      pack: {
        id: pack.id,
        name: pack.name ?? `Hook pack ${pack.id}`,
        status,
        videos_total: batch.length,
        videos_completed: completed,
        videos_failed: batch.length - completed,
        download_url: completed > 0 ? `/hooks/${pack.id}/download` : null,
      },
    }),
  );
}
