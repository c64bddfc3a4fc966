import { z } from 'zod';
import { IsoDate } from './common.ts';

/**
 * Personal API keys and webhooks (docs/api.md): a program acts for its owner with a key instead of a session,
 * and hears about finished work from a signed POST instead of polling.
 */

export const INTEGRATION_LIMITS = {
  apiKeyNameMax: 60,
  apiKeysPerUser: 10,
  /** Requests one key may make in a minute across every route; then 429 with Retry-After. */
  apiKeyRequestsPerMinute: 120,
  webhookEndpointsPerUser: 5,
  webhookUrlMax: 2000,
  /** Deliveries shown in the log on /settings. */
  webhookLogSize: 50,
  /** How long a delivery keeps being retried, with backoff, before it is given up. */
  webhookRetryHours: 24,
  /** A receiver's answer must come within this time (and only its status is kept). */
  webhookTimeoutMs: 10_000,
  /** How old a signature's timestamp may be before a receiver should refuse it (replay window). */
  webhookToleranceSeconds: 300,
  /** Deliveries one endpoint may have waiting (pending); a new event beyond this is recorded as dropped. */
  webhookPendingPerEndpoint: 10,
  /** Failed attempts in a row after which an endpoint is paused until its owner resumes it. */
  webhookPauseAfterFailures: 15,
} as const;

/** Every key starts with this, so a leaked one is easy to recognise (and to search for in code). */
export const API_KEY_PREFIX = 'hrk_';
/** The header that carries a webhook's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Hookreel-Signature';

export const INTEGRATION_MESSAGES = {
  apiKeyNameRequired: 'Give the key a name',
  apiKeyNameTooLong: `The name can be at most ${INTEGRATION_LIMITS.apiKeyNameMax} characters`,
  apiKeysLimit: `You can have at most ${INTEGRATION_LIMITS.apiKeysPerUser} active API keys. Revoke one first.`,
  apiKeyRateLimited: (perMinute: number) =>
    `This API key made more than ${perMinute} requests in a minute. Wait a moment and try again.`,
  sessionOnly: 'API keys cannot manage API keys, webhooks or the account. Sign in to the web app to do this.',
  webhookUrlInvalid: 'Enter a valid https:// URL',
  webhookUrlHttps: 'Webhook endpoints must use https://',
  webhookUrlNotPublic: 'This address points to a private or local network. Webhooks can only reach public addresses.',
  webhookEndpointsLimit: `You can have at most ${INTEGRATION_LIMITS.webhookEndpointsPerUser} webhook endpoints`,
  adminKeyOnlyForAdmins: 'Only administrators can create an admin key.',
  apiKeyNotAdmin:
    'This API key cannot use administrator routes. An administrator can create an admin key on purpose, or sign in.',
  webhookTestRateLimited: (perMinute: number) =>
    `You can send at most ${perMinute} test events a minute. Wait a moment and try again.`,
  webhookPausedTest: 'This endpoint is paused. Resume it first, then send a test.',
  webhookDropped: `Not sent: ${INTEGRATION_LIMITS.webhookPendingPerEndpoint} deliveries were already waiting for this endpoint`,
  webhookEndpointPaused: 'Not sent: the endpoint is paused',
  webhookPausedNotice: `Paused after ${INTEGRATION_LIMITS.webhookPauseAfterFailures} failed deliveries in a row. Nothing is sent until you resume it.`,
  keyCreatedNotice: 'Copy this key now. For your security it will not be shown again.',
  secretCreatedNotice: 'Copy this signing secret now. It will not be shown again.',
} as const;

/**
 * What a key may do: `user` acts on its owner's own data; `admin` also reaches administrator routes, and only an
 * administrator can make one, on purpose (decision 175).
 */
export const API_KEY_SCOPES = ['user', 'admin'] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

export const ApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: ApiKeyScope,
  /** The first characters of the key (`hrk_ab12cd34`), enough to tell keys apart; never the whole key. */
  prefix: z.string(),
  created_at: IsoDate,
  last_used_at: IsoDate.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1, INTEGRATION_MESSAGES.apiKeyNameRequired)
    .max(INTEGRATION_LIMITS.apiKeyNameMax, INTEGRATION_MESSAGES.apiKeyNameTooLong),
  /** `user` unless asked otherwise; `admin` is refused (403) for anyone who is not an administrator. */
  scope: ApiKeyScope.default('user'),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** The only answer that carries the whole key: it is stored hashed and cannot be shown again. */
export const CreatedApiKey = ApiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const WEBHOOK_EVENT_TYPES = [
  'job.completed',
  'job.failed',
  'pack.completed',
  'pack.failed',
  'webhook.test',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  created_at: IsoDate,
  /** When it was paused for failing again and again (nothing is sent until it is resumed); null while active. */
  paused_at: IsoDate.nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreateWebhookEndpointRequest = z.object({
  url: z.string().trim().min(1, INTEGRATION_MESSAGES.webhookUrlInvalid).max(INTEGRATION_LIMITS.webhookUrlMax),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

/** The only answer that carries the signing secret (`whsec_…`). */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  url: z.string(),
  event_id: z.string(),
  event_type: WebhookEventType,
  /** pending: not yet accepted, still retrying; delivered: a 2xx answer; failed: given up after the retry window. */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The receiver's last HTTP status, or null when it could not be reached. */
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: IsoDate,
  last_attempt_at: IsoDate.nullable(),
  next_attempt_at: IsoDate.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookTestResponse = z.object({ delivery_id: z.number().int() });

/** A finished video job, as webhook events carry it. */
export const WebhookJobData = z.object({
  id: z.number().int(),
  status: z.enum(['completed', 'failed']),
  project_name: z.string(),
  project_id: z.number().int().nullable(),
  hook_pack_id: z.number().int().nullable(),
  /** Relative to the API (`GET /api/{video_url}` with the key); null unless completed. */
  video_url: z.string().nullable(),
  error: z.string().nullable(),
  finished_at: IsoDate.nullable(),
});

/** A hook pack whose videos have all finished. */
export const WebhookPackData = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['completed', 'failed']),
  videos_total: z.number().int(),
  videos_completed: z.number().int(),
  videos_failed: z.number().int(),
  /** `GET /api{download_url}` returns the zip of the finished videos. */
  download_url: z.string().nullable(),
});

/**
 * The JSON body of every webhook POST. `id` is the same on every retry of one event: receivers use it to
 * ignore repeats. Verify `Hookreel-Signature` before trusting any of it (docs/api.md#webhooks).
 */
export const WebhookEvent = z.object({
  id: z.string(),
  type: WebhookEventType,
  created_at: IsoDate,
  data: z.object({
    job: WebhookJobData.optional(),
    pack: WebhookPackData.optional(),
    message: z.string().optional(),
  }),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;
