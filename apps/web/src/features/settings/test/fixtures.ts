import type { ApiKey, WebhookEndpoint } from '@hookreel/contracts';

/** API key 4, 'Nightly export': a user key, never used. */
export const makeApiKey = (over: Partial<ApiKey> = {}): ApiKey => ({
  id: 4,
  name: 'Nightly export',
  prefix: 'hrk_abcdefgh',
  scope: 'user',
  created_at: '2026-12-01T10:00:00.000Z',
  last_used_at: null,
  ...over,
});

/** Webhook endpoint {id} at https://hooks.example.com/in, active. */
export const makeWebhookEndpoint = (id: number, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  url: 'https://hooks.example.com/in',
  created_at: '2026-11-23T10:00:00.000Z',
  paused_at: null,
  ...over,
});
