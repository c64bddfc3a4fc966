import { API_KEY_PREFIX, INTEGRATION_LIMITS, WEBHOOK_SIGNATURE_HEADER, WebhookEvent } from '@hookreel/contracts';
import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';

/**
 * The parts of the API description no route carries: how to authenticate (session token or personal API key)
 * and what webhook deliveries look like. OpenAPI 3.0 has no `webhooks` section, so deliveries are described
 * under `x-webhooks` (read by Redoc and others) with their body in `components.schemas.WebhookEvent`.
 */
// zod writes a valid OpenAPI 3.0 schema; its own type is JSON Schema's, wider than OpenAPI's.
const eventSchema = z.toJSONSchema(WebhookEvent, { target: 'openapi-3.0' }) as unknown as OpenAPIV3.SchemaObject;

const SIGNATURE_DESCRIPTION =
  `\`t=<unix seconds>,v1=<hex>\`, where the hex is HMAC-SHA256 with the endpoint's signing secret (whsec_…) over ` +
  `\`<t>.<raw body>\`. Recompute it over the raw bytes, compare in constant time, and refuse timestamps older ` +
  `than ${INTEGRATION_LIMITS.webhookToleranceSeconds} seconds. See docs/api.md.`;

export const OPENAPI_SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      `An access token from signing in, or a personal API key (\`${API_KEY_PREFIX}…\`) created on /settings. ` +
      `A key acts as its owner on every route except managing keys, webhooks and the account, and may make ` +
      `${INTEGRATION_LIMITS.apiKeyRequestsPerMinute} requests a minute (then 429 with Retry-After).`,
  },
} as const;

export const OPENAPI_SCHEMAS = { WebhookEvent: eventSchema };

/** Vendor extensions of the document (passed through as they are). */
export const OPENAPI_EXTENSIONS = {
  'x-webhooks': {
    event: {
      post: {
        summary: 'A job or pack finished (job.completed, job.failed, pack.completed, pack.failed, webhook.test)',
        description:
          `POSTed to each of the user's endpoints. Answer 2xx within ${INTEGRATION_LIMITS.webhookTimeoutMs / 1000} s; ` +
          `anything else is retried with backoff for ${INTEGRATION_LIMITS.webhookRetryHours} hours. The event id ` +
          `is the same on every retry.`,
        parameters: [
          {
            in: 'header',
            name: WEBHOOK_SIGNATURE_HEADER,
            required: true,
            schema: { type: 'string' },
            description: SIGNATURE_DESCRIPTION,
          },
          { in: 'header', name: 'Hookreel-Event-Id', required: true, schema: { type: 'string' } },
          { in: 'header', name: 'Hookreel-Event-Type', required: true, schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } },
        },
        responses: { '200': { description: 'Received (any 2xx)' } },
      },
    },
  },
};
