import { createHmac, randomBytes } from 'node:crypto';

/**
 * The webhook signature (decision 132, docs/api.md#webhooks): `t=<unix seconds>,v1=<hex>` where the hex is
 * HMAC-SHA256 with the endpoint's secret over `<t>.<body>`. Signing the timestamp with the body lets a receiver
 * refuse a replayed delivery by its age.
 */

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export function signWebhook(secret: string, body: string, timestampSec: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSec}.${body}`).digest('hex');
  return `t=${timestampSec},v1=${mac}`;
}
