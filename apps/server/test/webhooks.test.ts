import { createHmac, timingSafeEqual } from 'node:crypto';
import { INTEGRATION_MESSAGES, WebhookEvent } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsRepository } from '../src/db/repositories/jobs.ts';
import { now } from '../src/db/database.ts';
import { PermanentJobError } from '../src/jobs/definition.ts';
import { emitJobEndedEvents } from '../src/services/integrations/webhooks.ts';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '../src/services/integrations/webhooks.jobs.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './helpers/webhook-receiver.ts';
import { call, waitFor } from './hook-helpers.ts';

/**
 * A receiver's check of `Hookreel-Signature`, written here from the documented scheme with node:crypto alone
 * (docs/api.md#webhooks), independent of the server's code: `t=<unix>,v1=<hex HMAC-SHA256(secret, "t.body")>`,
 * refused when older than five minutes.
 */
function referenceVerify(secret: string, body: string, header: string, nowSec = Date.now() / 1000): boolean {
  const fields = header.split(',').map((kv) => kv.split('='));
  const t = fields.find(([k]) => k === 't')?.[1];
  const signatures = fields.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!t || !/^\d+$/.test(t) || Math.abs(nowSec - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest();
  return signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

interface Delivery {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

describe.each(TEST_DIALECTS)('webhooks (%s)', (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  const engine = recordingEngine();

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({ dialect, env: { UNSAFE_WEBHOOK_TEST_ORIGINS: receiver.origin } });
    server.ctx.media = engine;
    // Delivery retries are scaled with the runner's base delay: 5 ms instead of 5 s makes them 1000 times shorter.
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 5 };
    await server.ctx.jobs.start();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  async function register(user: TestUser, path = '/hook') {
    const res = await call(server, user, 'POST', '/api/webhooks', { url: `${receiver.origin}${path}` });
    expect(res.status).toBe(201);
    return res.json as { id: number; url: string; secret: string };
  }
  const deliveries = async (user: TestUser) =>
    (await call(server, user, 'GET', '/api/webhooks/deliveries')).json as Delivery[];
  const eventsOf = (secret: string): Array<{ event: WebhookEvent; raw: ReceivedWebhook }> =>
    receiver.received
      .filter((r) => referenceVerify(secret, r.body, String(r.headers['hookreel-signature'])))
      .map((raw) => ({ event: WebhookEvent.parse(JSON.parse(raw.body)), raw }));
  /** The first `type` event the endpoint signed with `secret` received, waited for up to 30 s. */
  const eventArrived = (secret: string, type: string) =>
    waitFor(async () => eventsOf(secret).find((e) => e.event.type === type), 30_000, type);

  it('accepts only https endpoints on public addresses (the test-only local origin aside)', async () => {
    const user = await registerUser(server);
    const cases: Array<[string, string]> = [
      ['http://example.com/hook', INTEGRATION_MESSAGES.webhookUrlHttps],
      ['ftp://example.com/hook', INTEGRATION_MESSAGES.webhookUrlInvalid],
      ['not a url', INTEGRATION_MESSAGES.webhookUrlInvalid],
      ['https://127.0.0.1/hook', INTEGRATION_MESSAGES.webhookUrlNotPublic],
      ['https://[::1]/hook', INTEGRATION_MESSAGES.webhookUrlNotPublic],
      ['https://169.254.169.254/latest/meta-data', INTEGRATION_MESSAGES.webhookUrlNotPublic],
      ['https://10.0.0.5/hook', INTEGRATION_MESSAGES.webhookUrlNotPublic],
      ['https://[::ffff:192.168.0.1]/hook', INTEGRATION_MESSAGES.webhookUrlNotPublic],
      ['https://localhost/hook', INTEGRATION_MESSAGES.webhookUrlNotPublic],
      // The receiver's address on another port is not the allowed origin.
      [`http://127.0.0.1:${Number(new URL(receiver.origin).port) + 1}/hook`, INTEGRATION_MESSAGES.webhookUrlHttps],
    ];
    for (const [url, detail] of cases) {
      const res = await call(server, user, 'POST', '/api/webhooks', { url });
      expect(res.status, url).toBe(422);
      expect(res.json, url).toEqual({ detail });
    }
    const ok = await register(user);
    expect(ok.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const list = (await call(server, user, 'GET', '/api/webhooks')).json as Array<Record<string, unknown>>;
    expect(list).toEqual([
      { id: ok.id, url: `${receiver.origin}/hook`, created_at: expect.any(String), paused_at: null },
    ]);
  });

  it('"send test" POSTs a signed event that an independent implementation verifies, and logs it', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    const sent = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(sent.status).toBe(202);
    const delivered = await waitFor(
      async () => (await deliveries(user)).find((d) => d.id === sent.json.delivery_id && d.status === 'delivered'),
      20_000,
      'the test delivery',
    );
    expect(delivered).toMatchObject({ event_type: 'webhook.test', attempts: 1, last_status_code: 200 });
    expect(delivered.next_attempt_at).toBeNull();

    const mine = eventsOf(endpoint.secret).filter((e) => e.event.id === delivered.event_id);
    expect(mine).toHaveLength(1);
    const { event, raw } = mine[0]!;
    expect(event.type).toBe('webhook.test');
    expect(raw.headers['content-type']).toBe('application/json');
    expect(raw.headers['hookreel-event-id']).toBe(event.id);
    // The signature is bound to the secret and to every byte of the body.
    const header = String(raw.headers['hookreel-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(referenceVerify('whsec_wrong', raw.body, header)).toBe(false);
    expect(referenceVerify(endpoint.secret, raw.body.replace('test', 'tesT'), header)).toBe(false);
    // A replay ten minutes later is refused by the timestamp.
    expect(referenceVerify(endpoint.secret, raw.body, header, Date.now() / 1000 + 600)).toBe(false);
  });

  it('retries with backoff until the endpoint accepts, with the same event each time', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    receiver.answers = [500, 503];
    const sent = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
    const done = await waitFor(
      async () => (await deliveries(user)).find((d) => d.id === sent.json.delivery_id && d.status === 'delivered'),
      30_000,
      'the delivery after two failures',
    );
    expect(done).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null });
    const tries = eventsOf(endpoint.secret).filter((e) => e.event.id === done.event_id);
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((t) => t.raw.body)).size).toBe(1);
  });

  it('records failed attempts in the log while it keeps trying', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    const saved = server.ctx.jobSettings;
    // Long enough to see the pending state between attempts.
    server.ctx.jobSettings = { ...saved, retryBaseMs: 500 };
    receiver.answers = [500];
    try {
      const sent = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
      const pending = await waitFor(
        async () => (await deliveries(user)).find((d) => d.id === sent.json.delivery_id && d.attempts === 1),
        20_000,
        'the first failed attempt',
      );
      expect(pending).toMatchObject({
        status: 'pending',
        last_status_code: 500,
        last_error: 'The endpoint answered HTTP 500',
      });
      expect(Date.parse(pending.next_attempt_at!)).toBeGreaterThan(Date.now());
      await waitFor(
        async () => (await deliveries(user)).find((d) => d.id === sent.json.delivery_id && d.status === 'delivered'),
        20_000,
        'the second attempt',
      );
    } finally {
      server.ctx.jobSettings = saved;
    }
  });

  it('gives up after the last attempt of the schedule and says so', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    const saved = server.ctx.jobSettings;
    // The whole day-long schedule in about 2 s (its steps keep their proportions; the runner polls every 50 ms).
    server.ctx.jobSettings = { ...saved, retryBaseMs: 0.1 };
    receiver.answers = Array<number>(WEBHOOK_MAX_ATTEMPTS).fill(500);
    try {
      const sent = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
      const failed = await waitFor(
        async () => (await deliveries(user)).find((d) => d.id === sent.json.delivery_id && d.status === 'failed'),
        50_000,
        'the delivery to be given up',
      );
      expect(failed).toMatchObject({ attempts: WEBHOOK_MAX_ATTEMPTS, last_status_code: 500, next_attempt_at: null });
    } finally {
      server.ctx.jobSettings = saved;
      receiver.answers = [];
    }
  });

  it('retries for about a day, never more than 24 hours', () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(24 * 3600_000);
    expect(total).toBeGreaterThan(23 * 3600_000);
    expect([...WEBHOOK_RETRY_DELAYS_MS]).toEqual([...WEBHOOK_RETRY_DELAYS_MS].sort((a, b) => a - b));
  });

  it('delivers through the SSRF guard: an endpoint whose address turns private is never called', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    // As if its DNS now answered an inside address: the stored URL points at loopback on another port.
    await server.ctx.db.kysely
      .updateTable('webhook_endpoints')
      .set({ url: 'http://127.0.0.1:9/hook' })
      .where('id', '=', endpoint.id)
      .execute();
    const before = receiver.received.length;
    const sent = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
    const refused = await waitFor(
      async () => (await deliveries(user)).find((d) => d.id === sent.json.delivery_id && d.attempts >= 1),
      20_000,
      'the refused attempt',
    );
    expect(refused.last_status_code).toBeNull();
    expect(refused.last_error).toMatch(/is not a public address; only public addresses can be reached/);
    expect(receiver.received.length).toBe(before);
  });

  it('announces a finished video job and a failed one', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    const projectId = await createProjectOverHttp(server, user, 'Webhook promo');
    const queued = await call(server, user, 'POST', `/api/jobs/${projectId}/queue`);
    expect(queued.status).toBe(201);
    const completed = await eventArrived(endpoint.secret, 'job.completed');
    expect(completed.event.data.job).toMatchObject({
      id: queued.json.id,
      status: 'completed',
      project_name: 'Webhook promo',
      project_id: projectId,
      error: null,
    });
    const job = (await call(server, user, 'GET', `/api/jobs/${queued.json.id}`)).json as { video_url: string };
    expect(completed.event.data.job?.video_url).toBe(job.video_url);

    engine.during = async () => {
      throw new PermanentJobError('The product photo is unreadable');
    };
    try {
      const second = await call(server, user, 'POST', `/api/jobs/${projectId}/queue`);
      const failed = await eventArrived(endpoint.secret, 'job.failed');
      expect(failed.event.data.job).toMatchObject({ id: second.json.id, status: 'failed', video_url: null });
      expect(failed.event.data.job?.error).toBeTruthy();
    } finally {
      engine.during = null;
    }
    // Nobody else's endpoint heard of it.
    const other = await registerUser(server);
    expect(await deliveries(other)).toEqual([]);
  });

  it('announces a pack once, when the last video of its batch finishes, however many finishers report', async () => {
    const user = await registerUser(server);
    const endpoint = await register(user);
    const pack = await call(server, user, 'POST', '/api/hooks', { name: 'Serum pack' });
    const batchId = `batch-${pack.json.id}`;
    const ids: number[] = [];
    for (const [i, status] of (['completed', 'failed'] as const).entries()) {
      const t = now();
      ids.push(
        await jobsRepository.insert(server.ctx.db.kysely, {
          user_id: user.id,
          name: 'render-hook-video',
          project_id: null,
          hook_pack_id: pack.json.id,
          variant_index: i,
          project_name: 'Serum pack',
          actor_name: null,
          variant_label: null,
          hook_text: null,
          status,
          progress: 100,
          payload: '{}',
          logs: '[]',
          result: null,
          video_key: status === 'completed' ? `users/${user.id}/jobs/v${i}.mp4` : null,
          poster_key: null,
          error: status === 'failed' ? 'Render failed' : null,
          attempts: 1,
          max_attempts: 3,
          lease_owner: null,
          lease_expires_at: null,
          run_after: t,
          hold_id: null,
          idempotency_key: null,
          file_token: `tok${i}`,
          batch_id: batchId,
          notified_at: null,
          created_at: t,
          updated_at: t,
        }),
      );
    }
    const ended = (id: number, status: 'completed' | 'failed') => ({
      id,
      userId: user.id,
      name: 'render-hook-video',
      status,
      batchId,
    });
    // Both finishers report (as two workers would); the pack is announced once.
    await Promise.all([
      emitJobEndedEvents(server.ctx, ended(ids[0]!, 'completed')),
      emitJobEndedEvents(server.ctx, ended(ids[1]!, 'failed')),
    ]);
    await emitJobEndedEvents(server.ctx, ended(ids[1]!, 'failed'));
    const packEvent = await eventArrived(endpoint.secret, 'pack.completed');
    expect(packEvent.event.data.pack).toEqual({
      id: pack.json.id,
      name: 'Serum pack',
      status: 'completed',
      videos_total: 2,
      videos_completed: 1,
      videos_failed: 1,
      download_url: `/hooks/${pack.json.id}/download`,
    });
    const log = await deliveries(user);
    expect(log.filter((d) => d.event_type === 'pack.completed')).toHaveLength(1);
    expect(log.filter((d) => d.event_type.startsWith('job.'))).toHaveLength(2);
  });

  it('keeps endpoints and logs to their owner', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const endpoint = await register(owner);
    expect((await call(server, other, 'POST', `/api/webhooks/${endpoint.id}/test`)).status).toBe(404);
    expect((await call(server, other, 'DELETE', `/api/webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await call(server, other, 'GET', '/api/webhooks')).json).toEqual([]);
    expect((await call(server, owner, 'DELETE', `/api/webhooks/${endpoint.id}`)).status).toBe(204);
    expect((await call(server, owner, 'GET', '/api/webhooks')).json).toEqual([]);
  });
});
