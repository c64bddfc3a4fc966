import { randomBytes } from 'node:crypto';
import { INTEGRATION_LIMITS, INTEGRATION_MESSAGES } from '@hookreel/contracts';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeContext, type AppContext } from '../src/context.ts';
import { sendTestWebhook } from '../src/services/integrations/webhooks.ts';
import { QUEUE_NAMES } from '../src/jobs/bullmq-queue.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { mailsTo } from './helpers/outbox.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { ensureSharedRedis, SHARED_REDIS_URL } from './helpers/shared-redis.ts';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.ts';
import { startWorkerContext } from './helpers/worker-context.ts';
import { call, waitFor } from './hook-helpers.ts';

/**
 * Issue #33, queue starvation: webhook deliveries are free to set off ("Send test", slow receivers retrying for a
 * day) and ran in the renders' slots. Each test below failed on the code before the lanes: no limit on tests, no
 * cap per endpoint, no pause, and a render waited behind deliveries.
 */

interface Delivery {
  id: number;
  endpoint_id: number;
  event_type: string;
  status: string;
  last_error: string | null;
}

/** Three receivers: one that answers at once, one that holds every request (slow), one that always fails. */
async function receivers() {
  const fast = await startWebhookReceiver();
  const slow = await startWebhookReceiver();
  slow.holding = true;
  const failing = await startWebhookReceiver();
  failing.fallback = 500;
  return { fast, slow, failing, origins: [fast, slow, failing].map((r) => r.origin).join(',') };
}

async function registerEndpoint(server: TestServer, user: TestUser, receiver: WebhookReceiver) {
  const res = await call(server, user, 'POST', '/api/webhooks', { url: `${receiver.origin}/hook` });
  expect(res.status).toBe(201);
  return res.json as { id: number };
}

const deliveriesOf = async (server: TestServer, user: TestUser, endpointId: number) =>
  ((await call(server, user, 'GET', '/api/webhooks/deliveries')).json as Delivery[]).filter(
    (d) => d.endpoint_id === endpointId,
  );

async function queueRender(server: TestServer, user: TestUser): Promise<number> {
  const projectId = await createProjectOverHttp(server, user, 'Render in a flood');
  const res = await call(server, user, 'POST', `/api/jobs/${projectId}/queue`);
  expect(res.status).toBe(201);
  return (res.json as { id: number }).id;
}

const jobStatus = async (server: TestServer, id: number) =>
  (await server.ctx.db.kysely.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

describe.each(TEST_DIALECTS)('abuse: webhook lanes and limits (%s)', (dialect) => {
  let server: TestServer;
  let r: Awaited<ReturnType<typeof receivers>>;
  const engine = recordingEngine();

  beforeAll(async () => {
    r = await receivers();
    server = await startTestServer({
      dialect,
      env: {
        UNSAFE_WEBHOOK_TEST_ORIGINS: r.origins,
        // One slot per lane: the old single lane of one slot is what a flood starved.
        WORKER_CONCURRENCY: '1',
        BACKGROUND_JOB_CONCURRENCY: '1',
        WEBHOOK_TEST_RATE_LIMIT: '5',
      },
    });
    server.ctx.media = engine;
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 5 };
    await server.ctx.jobs.start();
  });
  // What a test left held is answered, so it does not hold the background slot for the next test.
  afterEach(() => r.slow.release());
  afterAll(async () => {
    r.slow.release();
    await server.close();
    for (const x of [r.fast, r.slow, r.failing]) await x.close();
  });

  it('"Send test" allows 5 a minute per user, then 429 with a clear message and Retry-After', async () => {
    const user = await registerUser(server);
    const endpoint = await registerEndpoint(server, user, r.fast);
    for (let i = 0; i < 5; i++) {
      expect((await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`)).status).toBe(202);
    }
    const sixth = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(sixth.status).toBe(429);
    expect(sixth.json).toEqual({ detail: INTEGRATION_MESSAGES.webhookTestRateLimited(5) });
    expect(Number(sixth.res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user has a budget of their own.
    const other = await registerUser(server);
    const theirs = await registerEndpoint(server, other, r.fast);
    expect((await call(server, other, 'POST', `/api/webhooks/${theirs.id}/test`)).status).toBe(202);
  });

  it('an endpoint holds at most 10 waiting deliveries; more events are logged as not sent and queue no job', async () => {
    r.slow.holding = true;
    const user = await registerUser(server);
    const endpoint = await registerEndpoint(server, user, r.slow);
    // The flood goes through the service: the HTTP limit above would stop it at 5 (as it should).
    for (let i = 0; i < 12; i++) await sendTestWebhook(server.ctx, user.id, endpoint.id);
    const mine = await deliveriesOf(server, user, endpoint.id);
    expect(mine).toHaveLength(12);
    expect(mine.filter((d) => d.status === 'pending')).toHaveLength(INTEGRATION_LIMITS.webhookPendingPerEndpoint);
    const dropped = mine.filter((d) => d.status === 'failed');
    expect(dropped).toHaveLength(2);
    for (const d of dropped) expect(d.last_error).toBe(INTEGRATION_MESSAGES.webhookDropped);
    const jobs = await server.ctx.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('user_id', '=', user.id)
      .where('name', '=', 'deliver-webhook')
      .execute();
    expect(jobs).toHaveLength(INTEGRATION_LIMITS.webhookPendingPerEndpoint);
  });

  it('a render is claimed and finishes while a flood of deliveries to a slow receiver is still held', async () => {
    r.slow.holding = true;
    const user = await registerUser(server);
    const endpoint = await registerEndpoint(server, user, r.slow);
    for (let i = 0; i < 8; i++) await sendTestWebhook(server.ctx, user.id, endpoint.id);
    await waitFor(async () => r.slow.held >= 1, 10_000, 'the first delivery at the slow receiver');
    // Queued after the flood: on one shared lane it would wait behind every delivery.
    const renderId = await queueRender(server, user);
    await waitFor(async () => (await jobStatus(server, renderId)) === 'completed', 20_000, 'the render');
    // Ordering, not time: the deliveries queued before it have not finished.
    expect(r.slow.held).toBeGreaterThanOrEqual(1);
    // (The finished render adds a job.completed event of its own.)
    const tests = (await deliveriesOf(server, user, endpoint.id)).filter((d) => d.event_type === 'webhook.test');
    expect(tests.filter((d) => d.status === 'pending')).toHaveLength(8);
  });

  it('15 failures in a row pause the endpoint, mail its owner, and only the owner can resume it', async () => {
    const user = await registerUser(server);
    const endpoint = await registerEndpoint(server, user, r.failing);
    for (let i = 0; i < 10; i++) await sendTestWebhook(server.ctx, user.id, endpoint.id);
    const paused = await waitFor(
      async () => {
        const list = (await call(server, user, 'GET', '/api/webhooks')).json as Array<{
          id: number;
          paused_at: string | null;
        }>;
        return list.find((e) => e.id === endpoint.id && e.paused_at !== null);
      },
      30_000,
      'the pause',
    );
    expect(paused.paused_at).toEqual(expect.any(String));
    // Everything that was waiting ends as not sent: nothing keeps retrying a dead receiver for a day.
    await waitFor(
      async () => (await deliveriesOf(server, user, endpoint.id)).every((d) => d.status === 'failed'),
      10_000,
      'the waiting deliveries to end',
    );
    const tries = r.failing.received.length;
    expect(tries).toBe(INTEGRATION_LIMITS.webhookPauseAfterFailures);

    // The notice is mailed just after the pause is stored, so it may arrive a moment later.
    const notice = await waitFor(
      async () =>
        (await mailsTo(server, user.email)).find((m) => m.subject === 'A Hookreel webhook endpoint was paused'),
      10_000,
      'the pause notice',
    );
    expect(notice.text).toContain(`${r.failing.origin}/hook`);
    expect(notice.text).toContain(`${server.url}/settings`);

    // Paused: a test is refused, and a new event is logged as not sent.
    const test = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(test.status).toBe(409);
    expect(test.json).toEqual({ detail: INTEGRATION_MESSAGES.webhookPausedTest });

    const stranger = await registerUser(server);
    expect((await call(server, stranger, 'POST', `/api/webhooks/${endpoint.id}/resume`)).status).toBe(404);
    r.failing.fallback = 200;
    const resumed = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.json).toMatchObject({ id: endpoint.id, paused_at: null });
    const again = await call(server, user, 'POST', `/api/webhooks/${endpoint.id}/test`);
    expect(again.status).toBe(202);
    await waitFor(
      async () =>
        (await deliveriesOf(server, user, endpoint.id)).find(
          (d) => d.id === again.json.delivery_id && d.status === 'delivered',
        ),
      20_000,
      'the delivery after resuming',
    );
    r.failing.fallback = 500;
  });
});

describe('abuse: webhook lane in scale mode (BullMQ on the local Redis)', () => {
  let server: TestServer;
  let worker: AppContext;
  let r: Awaited<ReturnType<typeof receivers>>;
  const prefix = `hookreel-lanes-${randomBytes(4).toString('hex')}`;
  const engine = recordingEngine();

  beforeAll(async () => {
    await ensureSharedRedis();
    r = await receivers();
    server = await startTestServer({ env: { REDIS_URL: SHARED_REDIS_URL, UNSAFE_WEBHOOK_TEST_ORIGINS: r.origins } });
    const fast = { pollMs: 50, leaseMs: 3000, heartbeatMs: 300, sweepMs: 200, retryBaseMs: 5, redisPrefix: prefix };
    server.ctx.jobSettings = { ...server.ctx.jobSettings, ...fast };
    worker = await startWorkerContext(server, {
      redisUrl: SHARED_REDIS_URL,
      media: engine,
      settings: fast,
      concurrency: 1,
      backgroundConcurrency: 1,
    });
    worker.config.webhookTestOrigins = server.ctx.config.webhookTestOrigins;
  });
  afterAll(async () => {
    r.slow.release();
    await closeContext(worker);
    await server.close();
    for (const x of [r.fast, r.slow, r.failing]) await x.close();
  });

  it('deliveries travel on their own queue and a render still runs while they are held', async () => {
    const user = await registerUser(server);
    const endpoint = await registerEndpoint(server, user, r.slow);
    for (let i = 0; i < 6; i++) await sendTestWebhook(server.ctx, user.id, endpoint.id);
    await waitFor(async () => r.slow.held >= 1, 15_000, 'the first delivery at the slow receiver');

    // The waiting deliveries sit in the background lane's queue, not in the renders' one.
    const redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const background = await redis.keys(`${prefix}:${QUEUE_NAMES.background}:*`);
      expect(background.length).toBeGreaterThan(0);
      const waitingRenders = await redis.llen(`${prefix}:${QUEUE_NAMES.render}:wait`);
      expect(waitingRenders).toBe(0);
    } finally {
      redis.disconnect();
    }

    const renderId = await queueRender(server, user);
    await waitFor(async () => (await jobStatus(server, renderId)) === 'completed', 20_000, 'the render');
    expect(engine.renders).toContain(renderId);
    expect(r.slow.held).toBeGreaterThanOrEqual(1);
    const tests = (await deliveriesOf(server, user, endpoint.id)).filter((d) => d.event_type === 'webhook.test');
    expect(tests.filter((d) => d.status === 'pending')).toHaveLength(6);
  });
});
