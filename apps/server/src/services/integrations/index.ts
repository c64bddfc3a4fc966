/**
 * The integrations area: API keys and webhooks (endpoints, signed deliveries, the events a finished job sends).
 * Other areas import it only through this file.
 */
export * from './api-keys.ts';
export { deliverWebhookJob } from './webhooks.jobs.ts';
export * from './webhooks.ts';
