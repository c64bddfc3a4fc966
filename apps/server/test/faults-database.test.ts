import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, ledgerBalances, toHundredths } from '../src/services/billing/credits.ts';
import { startJobRunner, startTestServer, type TestServer } from './helpers/app.ts';
import { createPgDatabase } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';
import { userApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * PostgreSQL unreachable for a few seconds. The server reaches its database through a TCP proxy that the test
 * cuts (open connections reset, new ones refused) and restores, with a job running and more queued. Requests
 * during the cut answer 503 with Retry-After, promptly; afterwards everything works again, no restart, and
 * every job completes exactly once in the ledger.
 */

/** A request that has not answered by then counts as hanging. A liveness bound, not a speed measurement. */
const HANG_MS = 20_000;
const OUTAGE_MS = 3_000;

describe('database unreachable for a few seconds (PostgreSQL behind a cut proxy)', () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let proxy: TcpProxy;
  let server: TestServer;
  let user: TestUser;
  let projectId: number;
  const engine = recordingEngine({ progress: [30, 'Rendering'] });

  beforeAll(async () => {
    pgDb = await createPgDatabase();
    const direct = new URL(pgDb.url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(pgDb.url);
    viaProxy.port = String(proxy.port);
    // The production default is 30 s; shorter here so the silent-partition case below stays quick.
    viaProxy.searchParams.set('query_timeout', '3000');
    server = await startTestServer({ env: { DATABASE_URL: viaProxy.toString(), WORKER_CONCURRENCY: '1' } });
    await startJobRunner(server, { leaseMs: 2000, heartbeatMs: 300, retryBaseMs: 200 }, engine);

    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(10), 'test');
    projectId = await createProjectOverHttp(server, user, 'Database outage');
  });

  afterAll(async () => {
    engine.releaseAll();
    proxy?.restore();
    await server?.close();
    await proxy?.close();
    await pgDb?.drop();
  });

  const { api, getJob } = userApi(() => ({ server, user }), HANG_MS);
  const queue = async () => {
    const res = await api(`/jobs/${projectId}/queue`, { method: 'POST' });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };

  it('answers 503 with Retry-After during the cut, loses no job, and recovers by itself', async () => {
    engine.holdNext();
    const runningId = await queue();
    await waitFor(async () => engine.gates.has(runningId));
    const waiting = [await queue(), await queue()]; // concurrency 1: these stay queued behind the held one
    for (const id of waiting) expect((await getJob(id))?.status).toBe('queued');
    const balanceBefore = await ledgerBalances(server.ctx.db.kysely, user.id);
    expect(balanceBefore.held).toBe(300);

    proxy.cut();
    const cutAt = Date.now();
    // The held render ends while the database is away: its outcome cannot be written.
    engine.gates.get(runningId)!();

    const seen: Array<{ path: string; status: number }> = [];
    do {
      for (const [p, init] of [
        [`/jobs/${runningId}`, {}],
        ['/jobs/', {}],
        ['/projects/', {}],
        [`/jobs/${projectId}/queue`, { method: 'POST' }],
        ['/user/me', {}],
        [
          '/auth/login',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: user.email, password: user.password }),
          },
        ],
      ] as const) {
        const res = await api(p, init);
        seen.push({ path: p, status: res.status });
        expect(res.status, `${p} during the outage`).toBe(503);
        expect(res.headers.get('retry-after')).toBeTruthy();
        expect(((await res.json()) as { detail: string }).detail).toMatch(/temporarily unavailable/i);
      }
    } while (Date.now() - cutAt < OUTAGE_MS);
    expect(seen.length).toBeGreaterThanOrEqual(6);

    proxy.restore();
    // Back without a restart: the pool opens new connections on the next request.
    await waitFor(async () => (await api('/jobs/')).status === 200);
    expect((await api('/projects/')).status).toBe(200);

    // Nothing was lost: the job whose outcome could not be recorded runs again once its lease expires, the
    // queued ones run, each is charged once, and no credit stays on hold.
    for (const id of [runningId, ...waiting]) {
      const done = await waitFor(async () => {
        const j = await getJob(id);
        return j?.status === 'completed' ? j : null;
      });
      expect(await (await fetch(`${server.url}/api/${done.video_url}`)).text()).toBe(`video of job ${id}`);
    }
    for (const id of waiting) expect(engine.renders.filter((r) => r === id)).toHaveLength(1);
    const b = await ledgerBalances(server.ctx.db.kysely, user.id);
    expect(b.held).toBe(0);
    expect(b.consumed).toBe(300);
    expect(b.granted).toBe(b.available + b.held + b.consumed);

    // And new work goes through as before.
    const next = await queue();
    await waitFor(async () => (await getJob(next))?.status === 'completed');
  });

  it('a silent partition (no resets, packets just stop) ends in 503 by the pool timeouts, then heals', async () => {
    expect((await api('/projects/')).status).toBe(200); // a pooled connection exists and will be stalled
    proxy.stall();
    try {
      for (const p of ['/projects/', '/jobs/']) {
        const res = await api(p);
        expect(res.status, `${p} while the network is silent`).toBe(503);
        expect(res.headers.get('retry-after')).toBeTruthy();
      }
    } finally {
      proxy.restore();
    }
    await waitFor(async () => (await api('/projects/')).status === 200);
    const id = await queue();
    await waitFor(async () => (await getJob(id))?.status === 'completed');
  });
});
