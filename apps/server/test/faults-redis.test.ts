import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContext, type AppContext } from '../src/context.ts';
import { grantCredits, ledgerBalances, toHundredths } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { openJobEvents } from './helpers/job-events.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { freePort } from './helpers/tcp-proxy.ts';
import { userApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';
import { startWorkerContext } from './helpers/worker-context.ts';

/**
 * Redis restarted mid-run (scale mode). The suite runs its own redis-server on a free port, never the shared
 * one, and kills it with SIGKILL while a job runs on the worker and more are being queued. The restarted Redis
 * is empty (no persistence), so every queued BullMQ message is gone: the rows in the database must bring the
 * work back through the workers' sweep, with no restart of the API or the worker.
 */

/** A request that has not answered by then counts as hanging. A liveness bound, not a speed measurement. */
const HANG_MS = 20_000;

class RedisProcess {
  private child: ChildProcess | null = null;
  port = 0;
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    }, 15_000);
  }
  /** A crash, not a shutdown: no SAVE, no goodbye to clients. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

describe('Redis restarted during a run (scale mode)', () => {
  const redis = new RedisProcess();
  let server: TestServer;
  let worker: AppContext;
  let user: TestUser;
  let projectId: number;
  const engine = recordingEngine({ progress: [30, 'Rendering on the worker'] });

  beforeAll(async () => {
    redis.port = await freePort();
    await redis.start();
    const prefix = `hookreel-faults-${randomBytes(4).toString('hex')}`;
    const fast = {
      pollMs: 50,
      leaseMs: 3000,
      heartbeatMs: 300,
      sweepMs: 300,
      // Long enough that a retry scheduled just before the crash is still a delayed message in Redis.
      retryBaseMs: 2000,
      shutdownGraceMs: 300,
      redisPrefix: prefix,
    };
    server = await startTestServer({ env: { REDIS_URL: redis.url } });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, ...fast };
    await server.ctx.jobs.start(); // the API process: enqueues only

    worker = await startWorkerContext(server, { redisUrl: redis.url, media: engine, settings: fast });

    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(10), 'test');
    projectId = await createProjectOverHttp(server, user, 'Redis restart');
  });

  afterAll(async () => {
    engine.releaseAll();
    if (worker) await closeContext(worker);
    await server?.close();
    await redis.kill();
  });

  const { api, getJob } = userApi(() => ({ server, user }), HANG_MS);
  const queue = async () => {
    const res = await api(`/jobs/${projectId}/queue`, { method: 'POST' });
    return { status: res.status, body: (await res.json()) as { id?: number } };
  };

  it('keeps answering while Redis is down, finishes the running job, and recovers the lost queue by itself', async () => {
    // A browser's live stream stays open through the whole outage.
    const stream = await openJobEvents(server.url, user.accessToken);
    const { events } = stream;

    // A job runs on the worker and is held mid-render; its progress reaches the stream over Redis pub/sub.
    engine.holdNext();
    const first = await queue();
    expect(first.status).toBe(201);
    const runningId = first.body.id!;
    await waitFor(async () => engine.gates.has(runningId));
    expect((await getJob(runningId))?.status).toBe('in_progress');

    // Another job fails its first attempt; its retry waits in Redis as a delayed message.
    engine.failNext('A passing glitch');
    const retried = (await queue()).body.id!;
    await waitFor(async () => {
      const j = await getJob(retried);
      return j?.status === 'queued' && j.error !== null;
    });
    await waitFor(async () => events.some((e) => e.job.id === runningId && e.job.status === 'in_progress'));

    await redis.kill();

    // Queueing needs only the database: the row (and its credit hold) commits and the request answers 201; the
    // failed hand-off to Redis is left to the sweep. No job endpoint needs Redis to answer, so none answers 503
    // (or hangs) here.
    const queuedDuringOutage: number[] = [];
    for (let i = 0; i < 3; i++) {
      const out = await queue();
      expect(out.status).toBe(201);
      queuedDuringOutage.push(out.body.id!);
    }
    for (const id of queuedDuringOutage) expect((await getJob(id))?.status).toBe('queued');
    const list = await api('/jobs/');
    expect(list.status).toBe(200);

    // A new live stream opens too (it delivers once Redis is back); the request does not hang.
    const late = await api('/jobs/events');
    expect(late.status).toBe(200);
    await late.body?.cancel();

    // An API process that boots while Redis is down answers too: its first hand-off to Redis gives up in bounded
    // time instead of waiting for a connection that never becomes ready.
    const api2 = await startTestServer({
      env: {
        REDIS_URL: redis.url,
        DATABASE_URL: server.ctx.config.databaseUrl,
        JWT_SECRET: server.ctx.config.jwtSecret,
      },
    });
    try {
      api2.ctx.jobSettings = { ...server.ctx.jobSettings };
      const res = await fetch(`${api2.url}/api/jobs/${projectId}/queue`, {
        method: 'POST',
        headers: user.authHeader,
        signal: AbortSignal.timeout(HANG_MS),
      });
      expect(res.status).toBe(201);
      queuedDuringOutage.push(((await res.json()) as { id: number }).id);
    } finally {
      await api2.close();
    }

    // The held render finishes while Redis is still down: the row, not BullMQ, records the outcome.
    engine.gates.get(runningId)!();
    const done = await waitFor(async () => {
      const j = await getJob(runningId);
      return j?.status === 'completed' ? j : null;
    });
    expect(done.progress).toBe(100);
    for (const id of queuedDuringOutage) expect((await getJob(id))?.status).toBe('queued');

    // Redis comes back empty: the messages for the queued rows are gone. The worker's sweep re-enqueues them.
    await redis.start();
    for (const id of queuedDuringOutage) {
      const j = await waitFor(async () => {
        const row = await getJob(id);
        return row?.status === 'completed' ? row : null;
      });
      expect(j.video_url).toBeTruthy();
      expect(await (await fetch(`${server.url}/api/${j.video_url}`)).text()).toBe(`video of job ${id}`);
    }

    // New work flows through the restarted Redis without restarting anything.
    const after = await queue();
    expect(after.status).toBe(201);
    await waitFor(async () => (await getJob(after.body.id!))?.status === 'completed');
    // The stream opened before the crash hears about it: the API's subscription came back with Redis.
    await waitFor(async () => events.some((e) => e.job.id === after.body.id && e.job.status === 'completed'));
    await stream.close();

    // Each job rendered once to completion and was paid for once; nothing held, nothing lost.
    // The retry whose delayed message died with Redis ran all the same (the sweep found its due row).
    const retriedJob = await waitFor(async () => {
      const j = await getJob(retried);
      return j?.status === 'completed' ? j : null;
    });
    expect(retriedJob.logs.some((l) => l.startsWith('Attempt 1 failed: A passing glitch'))).toBe(true);

    const all = [runningId, retried, ...queuedDuringOutage, after.body.id!];
    for (const id of all) expect(engine.renders.filter((r) => r === id)).toHaveLength(1);
    const b = await ledgerBalances(server.ctx.db.kysely, user.id);
    expect(b.held).toBe(0);
    expect(b.consumed).toBe(all.length * 100);
    expect(b.granted).toBe(b.available + b.held + b.consumed);
  });
});
