import {
  INTEGRATION_MESSAGES,
  ApiKey,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreatedWebhookEndpoint,
  CreateWebhookEndpointRequest,
  ErrorResponse,
  IdParam,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookTestResponse,
} from '@hookreel/contracts';
import { z } from 'zod';
import * as apiKeys from '../../services/integrations/index.ts';
import * as webhooks from '../../services/integrations/index.ts';
import { createPerUserLimiter } from '../../uploads/rate-limit.ts';
import type { RouteModule } from './index.ts';

/**
 * Personal API keys and webhooks, managed from /settings. Only a signed-in session may manage them, never a key
 * (decision 131); docs/api.md walks through using them.
 */
export const integrationRoutes: RouteModule = async (api, { ctx, requireSession }) => {
  const security = [{ bearer: [] }];
  const errors = { 401: ErrorResponse, 403: ErrorResponse };
  /** Removing one of the user's keys or endpoints: 204, or 404 when it is not theirs. */
  const removeOptions = (tag: string) => ({
    onRequest: requireSession,
    schema: { tags: [tag], security, params: IdParam, response: { 204: z.null(), 404: ErrorResponse, ...errors } },
  });
  // Each test is a delivery job that costs the server time: a per-user budget of clicks (issue #33).
  const limitTests = createPerUserLimiter(
    ctx.config.webhookTestRateLimit,
    INTEGRATION_MESSAGES.webhookTestRateLimited(ctx.config.webhookTestRateLimit),
  );

  api.get(
    '/api-keys',
    {
      onRequest: requireSession,
      schema: { tags: ['api-keys'], security, response: { 200: z.array(ApiKey), ...errors } },
    },
    async (request) => apiKeys.listApiKeys(ctx, request.userId),
  );

  api.post(
    '/api-keys',
    {
      onRequest: requireSession,
      schema: {
        tags: ['api-keys'],
        security,
        description: 'Creates a key. The answer is the only time the whole key is shown: it is stored hashed.',
        body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await apiKeys.createApiKey(ctx, request.userId, request.body.name, request.body.scope)),
  );

  api.delete('/api-keys/:id', removeOptions('api-keys'), async (request, reply) => {
    await apiKeys.revokeApiKey(ctx, request.userId, request.params.id);
    return reply.status(204).send(null);
  });

  api.get(
    '/webhooks',
    {
      onRequest: requireSession,
      schema: { tags: ['webhooks'], security, response: { 200: z.array(WebhookEndpoint), ...errors } },
    },
    async (request) => webhooks.listWebhookEndpoints(ctx, request.userId),
  );

  api.post(
    '/webhooks',
    {
      onRequest: requireSession,
      schema: {
        tags: ['webhooks'],
        security,
        description:
          'Registers an https endpoint. The answer carries the signing secret, once. Events are POSTed as ' +
          'WebhookEvent JSON with a Hookreel-Signature header (t=<unix>,v1=<hex HMAC-SHA256 of "t.body">).',
        body: CreateWebhookEndpointRequest,
        response: { 201: CreatedWebhookEndpoint, 409: ErrorResponse, 422: ErrorResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.createWebhookEndpoint(ctx, request.userId, request.body.url)),
  );

  api.delete('/webhooks/:id', removeOptions('webhooks'), async (request, reply) => {
    await webhooks.deleteWebhookEndpoint(ctx, request.userId, request.params.id);
    return reply.status(204).send(null);
  });

  api.post(
    '/webhooks/:id/test',
    {
      onRequest: requireSession,
      preHandler: limitTests,
      schema: {
        tags: ['webhooks'],
        security,
        description:
          'Queues a signed webhook.test event to the endpoint; see the delivery log for the outcome. At most ' +
          'WEBHOOK_TEST_RATE_LIMIT (default 5) a minute per user, then 429; 409 while the endpoint is paused.',
        params: IdParam,
        response: { 202: WebhookTestResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await webhooks.sendTestWebhook(ctx, request.userId, request.params.id)),
  );

  api.post(
    '/webhooks/:id/resume',
    {
      onRequest: requireSession,
      schema: {
        tags: ['webhooks'],
        security,
        description:
          'Resumes an endpoint that was paused after failing again and again: new events are sent to it again.',
        params: IdParam,
        response: { 200: WebhookEndpoint, 404: ErrorResponse, ...errors },
      },
    },
    async (request) => webhooks.resumeWebhookEndpoint(ctx, request.userId, request.params.id),
  );

  api.get(
    '/webhooks/deliveries',
    {
      onRequest: requireSession,
      schema: { tags: ['webhooks'], security, response: { 200: z.array(WebhookDelivery), ...errors } },
    },
    async (request) => webhooks.listWebhookDeliveries(ctx, request.userId),
  );
};
