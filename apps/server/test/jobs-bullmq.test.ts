import { randomBytes } from 'node:crypto';
import { Job } from '@hookreel/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContext, type AppContext } from '../src/context.ts';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { createJob } from '../src/services/jobs/index.ts';
import { renderProjectVideoJob } from '../src/services/projects/jobs.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { insertProject, insertUser } from './helpers/factories.ts';
import { openJobEvents } from './helpers/job-events.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { ensureSharedRedis, SHARED_REDIS_URL } from './helpers/shared-redis.ts';
import { waitFor } from './helpers/wait.ts';
import { startWorkerContext } from './helpers/worker-context.ts';

const REDIS_URL = SHARED_REDIS_URL;

describe('scale mode: BullMQ dispatch, Redis events, separate worker', () => {
  let server: TestServer;
  let worker: AppContext;
  const prefix = `hookreel-test-${randomBytes(4).toString('hex')}`;
  const engine = recordingEngine({ progress: [40, 'Rendering on the worker'], content: (i) => `bullmq ${i.jobId}` });
  let userId: number;
  let headers: Record<string, string>;
  let token: string;
  let projectId: number;

  beforeAll(async () => {
    await ensureSharedRedis();
    server = await startTestServer({ env: { REDIS_URL } });
    const fast = {
      pollMs: 50,
      leaseMs: 3000,
      heartbeatMs: 300,
      sweepMs: 200,
      retryBaseMs: 100,
      shutdownGraceMs: 300,
      redisPrefix: prefix,
    };
    server.ctx.jobSettings = { ...server.ctx.jobSettings, ...fast };
    await server.ctx.jobs.start(); // an API process: RUN_JOBS defaults to false with REDIS_URL, so this runs nothing

    worker = await startWorkerContext(server, { redisUrl: REDIS_URL, media: engine, settings: fast });

    ({ id: userId, token, headers } = await insertUser(server, { credits: 10 }));
    projectId = await insertProject(server, userId, 'Scaled');
  });

  afterAll(async () => {
    await closeContext(worker);
    await server.close();
  });

  /** How many connections Redis holds subscribed to `channel`. */
  const subscribers = async (channel: string): Promise<number> => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const reply = (await redis.pubsub('NUMSUB', channel)) as [string, number];
      return Number(reply[1]);
    } finally {
      redis.disconnect();
    }
  };

  const getJob = async (id: number) => {
    const res = await fetch(`${server.url}/api/jobs/${id}`, { headers });
    return res.status === 200 ? Job.parse(await res.json()) : null;
  };

  it('uses the BullMQ backend; the API process runs no jobs; the worker completes them and events cross Redis', async () => {
    expect(server.ctx.config.runJobs).toBe(false);
    expect(server.ctx.jobs.backend).toBe('bullmq');

    const stream = await openJobEvents(server.url, token);
    const { events } = stream;
    // Both processes' Redis subscriptions are in place (the worker's and the API's): a fixed pause was not
    // always long enough under a loaded machine, and an event published before would be missed.
    await waitFor(async () => (await subscribers(`${prefix}:job-changed`)) >= 2);

    const res = await fetch(`${server.url}/api/jobs/${projectId}/queue`, { method: 'POST', headers });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    const done = await waitFor(async () => {
      const j = await getJob(id);
      return j?.status === 'completed' ? j : null;
    });
    expect(engine.renders).toContain(id);
    // A stage that took 0.1 s or more carries its duration ('Rendering on the worker — 0.2 s'), as on a loaded machine.
    expect(done.logs.filter((l) => /^Rendering on the worker( — [\d.]+ s)?$/.test(l))).toHaveLength(1);
    expect(await (await fetch(`${server.url}/api/${done.video_url}`)).text()).toBe(`bullmq ${id}`);
    await waitFor(async () => events.some((e) => e.job.id === id && e.job.status === 'completed'));
    expect(events.some((e) => e.job.id === id && e.job.status === 'in_progress')).toBe(true);
    await stream.close();

    const b = await ledgerBalances(server.ctx.db.kysely, userId);
    expect(b.granted).toBe(b.available + b.held + b.consumed);
    expect(b.consumed).toBe(100);
  });

  it('deleting a job that runs on the worker aborts it there (cancel over Redis pub/sub) and releases the hold', async () => {
    let rendering = false;
    let aborted = false;
    engine.during = (input) =>
      new Promise<void>((_, reject) => {
        rendering = true;
        input.signal.addEventListener('abort', () => {
          aborted = true;
          reject(input.signal.reason);
        });
      });
    try {
      const { id } = (await (
        await fetch(`${server.url}/api/jobs/${projectId}/queue`, { method: 'POST', headers })
      ).json()) as { id: number };
      // Delete once the render is under way on the worker: a delete between the claim (in_progress) and the
      // render's start stops the job before the engine is ever called, so there would be no render to abort.
      await waitFor(async () => rendering);
      expect((await getJob(id))?.status).toBe('in_progress');
      expect((await fetch(`${server.url}/api/jobs/${id}`, { method: 'DELETE', headers })).status).toBe(204);
      await waitFor(async () => aborted);
      const holds = await server.ctx.db.kysely
        .selectFrom('credit_holds')
        .select('state')
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(holds.state).toBe('released');
    } finally {
      engine.during = null;
    }
  });

  it("a worker's sweep picks up a committed row whose enqueue never happened", async () => {
    const id = await server.ctx.db.kysely.transaction().execute((trx) =>
      createJob(trx, renderProjectVideoJob, {
        userId,
        payload: { projectId },
        projectName: 'Scaled',
        projectId,
        price: 'video',
      }),
    );
    // No enqueue: only the row exists (as if Redis was down when the API committed).
    const done = await waitFor(async () => {
      const j = await getJob(id);
      return j?.status === 'completed' ? j : null;
    });
    expect(done.progress).toBe(100);
  });
});
