import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeContext, type AppContext } from '../src/context.ts';
import { grantCredits, toHundredths } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { ensureSharedRedis, SHARED_REDIS_URL } from './helpers/shared-redis.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';
import { userApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';
import { startWorkerContext } from './helpers/worker-context.ts';

/**
 * Redis drops while a BullMQ connection is starting up (scale mode). BullMQ readies a connection in steps —
 * ioredis's ready check (an INFO), then its own INFO for the server's version — and remembers how that went: if
 * the connection drops at the second step, that queue or worker fails every call from then on, even after Redis
 * is back. The proxy in front of Redis cuts every connection exactly there; after it is restored, the API must
 * enqueue again and the worker must take jobs, with no restart of either.
 */

const HANG_MS = 20_000;
/** The second INFO a connection sends is BullMQ's version check, right after ioredis's ready check. */
const atBullmqVersionCheck = (sent: string) => (sent.match(/\r\ninfo\r\n/gi) ?? []).length >= 2;
/** Long enough for ioredis to fail its 3 reconnects (50 + 100 + 150 ms apart) and give up the pending INFO. */
const OUTAGE_MS = 1_500;

describe('Redis drops while a queue or worker connection starts up (scale mode)', () => {
  const fast = {
    pollMs: 50,
    leaseMs: 3000,
    heartbeatMs: 300,
    sweepMs: 300,
    retryBaseMs: 100,
    shutdownGraceMs: 300,
    redisPrefix: `hookreel-startup-${randomBytes(4).toString('hex')}`,
  };
  const engine = recordingEngine();
  let proxy: TcpProxy;
  let direct: Redis;
  let server: TestServer | null = null;
  let worker: AppContext | null = null;
  let user: TestUser;
  let projectId: number;

  beforeAll(async () => {
    await ensureSharedRedis();
    const { port } = new URL(SHARED_REDIS_URL);
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(port) });
    direct = new Redis(SHARED_REDIS_URL);
  });

  afterEach(async () => {
    engine.releaseAll();
    if (worker) await closeContext(worker);
    await server?.close();
    worker = null;
    server = null;
    proxy.restore();
  });

  afterAll(async () => {
    direct.disconnect();
    await proxy.close();
  });

  const startApi = async (redisUrl: string) => {
    server = await startTestServer({ env: { REDIS_URL: redisUrl } });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, ...fast };
    await server.ctx.jobs.start(); // an API process: enqueues only
    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(10), 'test');
    projectId = await createProjectOverHttp(server, user, 'Redis start-up');
    return server;
  };
  const { api, getJob } = userApi(() => ({ server: server!, user }), HANG_MS);
  const queue = async () => {
    const res = await api(`/jobs/${projectId}/queue`, { method: 'POST' });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const messageInRedis = (jobId: number) => direct.exists(`${fast.redisPrefix}:jobs:j${jobId}-a0`);

  it("an API process whose queue connection dropped mid start-up hands jobs to Redis again once it's back", async () => {
    await startApi(`redis://127.0.0.1:${proxy.port}`);
    const dropped = proxy.cutWhen(atBullmqVersionCheck);

    // The first enqueue opens the queue's connection, which the proxy cuts at BullMQ's version check. The row
    // commits all the same and the request answers (the hand-off is left to the workers' sweep).
    const first = await queue();
    await dropped;
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    proxy.restore();

    // No worker runs here, so nothing but this process's own queue can put these messages in Redis.
    const second = await queue();
    expect(await waitFor(async () => (await messageInRedis(second)) === 1, 15_000)).toBe(true);
    expect((await getJob(first))?.status).toBe('queued');
  });

  it('a worker whose connection dropped mid start-up takes jobs once Redis is back', async () => {
    await startApi(SHARED_REDIS_URL);
    const dropped = proxy.cutWhen(atBullmqVersionCheck);
    worker = await startWorkerContext(server!, {
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
      media: engine,
      settings: fast,
    });
    await dropped;
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    proxy.restore();

    const id = await queue();
    const done = await waitFor(async () => {
      const j = await getJob(id);
      return j?.status === 'completed' ? j : null;
    }, 30_000);
    expect(done.progress).toBe(100);
    expect(engine.renders).toContain(id);
  });
});
