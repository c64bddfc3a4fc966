import { INTEGRATION_LIMITS, INTEGRATION_MESSAGES, WEBHOOK_SIGNATURE_HEADER } from '@hookreel/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { webhooksRepository, type WebhookEndpointRow } from '../../db/repositories/webhooks.ts';
import { webhookPausedEmail } from '../../mail/templates.ts';
import { defineJob } from '../../jobs/definition.ts';
import type { JobSettings } from '../../jobs/settings.ts';
import { safeFetch, SafeFetchError } from '../../net/safe-fetch.ts';
import { signWebhook } from './webhook-signature.ts';

/**
 * Waits between delivery attempts: quick at first for a receiver that blinked, then hours apart for one that is
 * down, ten attempts over 23 h 42 min in all (inside the 24 h the product promises). JOB_RETRY_BASE_MS scales
 * them with the rest of the runner's retries (tests shorten it; its default, 5 s, leaves them as written).
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
] as const;
const DEFAULT_RETRY_BASE_MS = 5_000;

export function webhookRetryDelayMs(attempt: number, settings: Pick<JobSettings, 'retryBaseMs'>): number {
  const i = Math.min(Math.max(attempt, 1), WEBHOOK_RETRY_DELAYS_MS.length) - 1;
  return Math.round((WEBHOOK_RETRY_DELAYS_MS[i]! * settings.retryBaseMs) / DEFAULT_RETRY_BASE_MS);
}

/** One first try and one more after each wait. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** A non-2xx answer: the runner retries on its schedule. */
class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
}

/**
 * POSTs the delivery's stored body, freshly signed, through the SSRF guard. Only the status is kept of the
 * answer; redirects are not followed (a receiver that moved must be registered again).
 */
async function attempt(app: AppContext, deliveryId: number, attemptNo: number, isLast: boolean): Promise<string> {
  const db = app.db.kysely;
  const delivery = await webhooksRepository.findDelivery(db, deliveryId);
  // The endpoint was deleted (its deliveries with it), or an earlier run already got through.
  if (!delivery) return 'Endpoint removed; nothing to deliver';
  if (delivery.status === 'delivered') return 'Already delivered';
  // Ended without being sent (its endpoint was paused meanwhile): no attempt, no retry.
  if (delivery.status === 'failed') return delivery.last_error ?? 'Not sent';
  const endpoint = await webhooksRepository.findEndpoint(db, delivery.user_id, delivery.endpoint_id);
  if (!endpoint) return 'Endpoint removed; nothing to deliver';
  if (endpoint.paused_at) {
    await webhooksRepository.failPending(db, endpoint.id, INTEGRATION_MESSAGES.webhookEndpointPaused);
    return INTEGRATION_MESSAGES.webhookEndpointPaused;
  }

  const timestamp = Math.floor(Date.now() / 1000);
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await safeFetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Hookreel-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(endpoint.secret, delivery.payload, timestamp),
        'hookreel-event-id': delivery.event_id,
        'hookreel-event-type': delivery.event_type,
      },
      body: delivery.payload,
      redirect: 'manual',
      maxBytes: 64 * 1024,
      timeoutMs: INTEGRATION_LIMITS.webhookTimeoutMs,
      testOnlyAllowedOrigins: app.config.webhookTestOrigins,
    });
    statusCode = res.status;
    if (res.status < 200 || res.status >= 300) error = `The endpoint answered HTTP ${res.status}`;
  } catch (err) {
    error = err instanceof SafeFetchError ? err.message : 'The endpoint could not be reached';
  }
  const delivered = error === null;
  const next = delivered || isLast ? null : new Date(Date.now() + webhookRetryDelayMs(attemptNo, app.jobSettings));
  await webhooksRepository.recordAttempt(db, deliveryId, {
    status: delivered ? 'delivered' : isLast ? 'failed' : 'pending',
    attempts: attemptNo,
    statusCode,
    error,
    nextAttemptAt: next ? next.toISOString() : null,
  });
  if (delivered) {
    await webhooksRepository.recordEndpointSuccess(db, endpoint.id);
    return `Delivered (HTTP ${statusCode})`;
  }
  const pauseAfter = INTEGRATION_LIMITS.webhookPauseAfterFailures;
  if (await webhooksRepository.recordEndpointFailure(db, endpoint.id, pauseAfter)) {
    // Paused: this delivery and every other waiting one end now, rather than retrying for a day.
    await webhooksRepository.failPending(db, endpoint.id, INTEGRATION_MESSAGES.webhookEndpointPaused);
    await tellOwnerPaused(app, endpoint);
    return `${error!}; the endpoint is paused after ${pauseAfter} failures in a row`;
  }
  throw new DeliveryFailed(error!);
}

/** One e-mail to the endpoint's owner when it is paused (a mail failure is logged, the pause stands). */
async function tellOwnerPaused(app: AppContext, endpoint: WebhookEndpointRow): Promise<void> {
  const owner = await usersRepository.findById(app.db.kysely, endpoint.user_id);
  if (!owner) return;
  const mail = webhookPausedEmail({
    publicUrl: app.config.publicUrl,
    url: endpoint.url,
    failures: INTEGRATION_LIMITS.webhookPauseAfterFailures,
  });
  await app.mailer.send({ to: owner.email, ...mail }).catch((err: unknown) => {
    console.warn(`[webhooks] could not tell user ${endpoint.user_id} that endpoint ${endpoint.id} is paused:`, err);
  });
}

/** One webhook delivery: an event for one endpoint, tried until a 2xx answer or for about a day. */
export const deliverWebhookJob = defineJob({
  name: 'deliver-webhook',
  // Anyone can set deliveries off for free ("Send test", slow receivers retrying): never in the renders' slots.
  lane: 'background',
  payload: z.object({ deliveryId: z.number().int().positive() }),
  async handler(job, jc) {
    const line = await attempt(jc.app, job.payload.deliveryId, job.attempt, job.attempt >= job.maxAttempts);
    return { logLine: line };
  },
  retryDelayMs: webhookRetryDelayMs,
  // A failure that never reached the handler's bookkeeping (a crash past the last attempt) still ends the row.
  async onGaveUp(trx, job) {
    const d = await webhooksRepository.findDelivery(trx, job.payload.deliveryId);
    if (d && d.status === 'pending') {
      await webhooksRepository.recordAttempt(trx, d.id, {
        status: 'failed',
        attempts: d.attempts,
        statusCode: d.last_status_code,
        error: d.last_error ?? 'Given up',
        nextAttemptAt: null,
      });
    }
  },
});
