/**
 * Lanes under a flood (issue #33): many users click webhook "Send test" against slow endpoints (each answer
 * takes BENCH_SLOW_MS) while renders are queued. Prints, per dialect, how many tests were accepted and refused,
 * how many deliveries still wait, and how long each render waited between being queued and being claimed
 * (the row's started_at minus its created_at). Renders use a stand-in media port (a small file, no ffmpeg): the
 * figure is the queue's delay, not rendering. Embedded runner, default lane sizes unless overridden.
 * Prints:
 *   lanes <dialect>: <n> test clicks by <u> users (<a> accepted, <r> refused 429), <w> deliveries waiting
 *   lanes <dialect>: render start delay over <k> renders p50 <x> ms, max <y> ms (target under 1000 ms)
 * Exits 1 when a render waited a second or more.
 * Knobs: BENCH_DIALECTS=sqlite,postgres BENCH_USERS=20 BENCH_CLICKS=12 BENCH_RENDERS=5 BENCH_SLOW_MS=3000
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { closeContext, type AppContext } from '../apps/server/src/context.ts';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/app.ts';
import { createProjectOverHttp, registerUser, type TestUser } from '../apps/server/test/helpers/factories.ts';
import { recordingEngine } from '../apps/server/test/helpers/recording-engine.ts';
import { ensureSharedRedis, SHARED_REDIS_URL } from '../apps/server/test/helpers/shared-redis.ts';
import { startWorkerContext } from '../apps/server/test/helpers/worker-context.ts';

const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const USERS = Number(process.env.BENCH_USERS ?? 20);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 12);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 5);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 3000);
const BULLMQ = process.env.BENCH_BULLMQ !== '0';

/** A receiver that answers 200 after SLOW_MS: the slow endpoint of the report. */
async function slowReceiver(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), SLOW_MS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function post(server: TestServer, user: TestUser, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...user.authHeader, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function runDialect(dialect: 'sqlite' | 'postgres', bullmq = false): Promise<number[]> {
  const label = bullmq ? `${dialect}+bullmq` : dialect;
  const receiver = await slowReceiver();
  const server = await startTestServer({
    dialect,
    env: { UNSAFE_WEBHOOK_TEST_ORIGINS: receiver.origin, ...(bullmq ? { REDIS_URL: SHARED_REDIS_URL } : {}) },
  });
  let worker: AppContext | null = null;
  try {
    // At the end, deliveries still talking to the slow receiver are handed back rather than awaited.
    const settings = { shutdownGraceMs: 500, redisPrefix: `hookreel-bench-lanes-${randomBytes(4).toString('hex')}` };
    server.ctx.jobSettings = { ...server.ctx.jobSettings, ...settings };
    if (bullmq) {
      // The API process only enqueues; a worker (as `npm run worker`) takes both lanes' queues.
      worker = await startWorkerContext(server, {
        redisUrl: SHARED_REDIS_URL,
        media: recordingEngine(),
        settings,
        concurrency: Math.max(1, cpus().length),
        backgroundConcurrency: 2,
      });
      worker.config.webhookTestOrigins = server.ctx.config.webhookTestOrigins;
    } else {
      server.ctx.media = recordingEngine();
      await server.ctx.jobs.start();
    }
    const users: Array<{ user: TestUser; endpointId: number }> = [];
    for (let i = 0; i < USERS; i++) {
      const user = await registerUser(server);
      const res = await post(server, user, '/api/webhooks', { url: `${receiver.origin}/hook-${i}` });
      users.push({ user, endpointId: ((await res.json()) as { id: number }).id });
    }
    const renderer = await registerUser(server);
    const projects: number[] = [];
    for (let i = 0; i < RENDERS; i++) projects.push(await createProjectOverHttp(server, renderer, `Render ${i + 1}`));

    // The flood: every user clicks Send test CLICKS times, all at once.
    const t0 = performance.now();
    const statuses = await Promise.all(
      users.flatMap(({ user, endpointId }) =>
        Array.from(
          { length: CLICKS },
          async () => (await post(server, user, `/api/webhooks/${endpointId}/test`)).status,
        ),
      ),
    );
    const accepted = statuses.filter((s) => s === 202).length;
    const refused = statuses.filter((s) => s === 429).length;

    // Renders queued into the flood, one every 200 ms; each one's wait from queued to claimed.
    const delays: number[] = [];
    for (const projectId of projects) {
      const res = await post(server, renderer, `/api/jobs/${projectId}/queue`);
      const { id } = (await res.json()) as { id: number };
      let row: { created_at: string; started_at: string | null } | undefined;
      for (let i = 0; i < 300 && !row?.started_at; i++) {
        await new Promise((r) => setTimeout(r, 20));
        row = await server.ctx.db.kysely
          .selectFrom('jobs')
          .select(['created_at', 'started_at'])
          .where('id', '=', id)
          .executeTakeFirst();
      }
      delays.push(row?.started_at ? Date.parse(row.started_at) - Date.parse(row.created_at) : Number.POSITIVE_INFINITY);
      await new Promise((r) => setTimeout(r, 200));
    }
    const waiting = await server.ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    console.log(
      `lanes ${label}: ${statuses.length} test clicks by ${USERS} users (${accepted} accepted, ${refused} refused ` +
        `429), ${Number(waiting.n)} deliveries waiting on a ${SLOW_MS} ms receiver ` +
        `(${((performance.now() - t0) / 1000).toFixed(1)} s into the flood)`,
    );
    console.log(
      `lanes ${label}: render start delay over ${delays.length} renders p50 ${percentile(delays, 50)} ms, ` +
        `max ${Math.max(...delays)} ms (target under 1000 ms)`,
    );
    return delays;
  } finally {
    if (worker) await closeContext(worker);
    await server.ctx.jobs.stop();
    await server.close();
    await receiver.close();
  }
}

async function main(): Promise<void> {
  let worst = 0;
  for (const dialect of DIALECTS) worst = Math.max(worst, ...(await runDialect(dialect)));
  if (BULLMQ) {
    await ensureSharedRedis();
    worst = Math.max(worst, ...(await runDialect(DIALECTS.includes('postgres') ? 'postgres' : 'sqlite', true)));
  }
  if (!(worst < 1000)) {
    console.error(`lanes FAILED: a render waited ${worst} ms to start`);
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
