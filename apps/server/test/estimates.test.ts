import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsRepository } from '../src/db/repositories/jobs.ts';
import { etaSeconds, measureThroughput, type EstimateSnapshot } from '../src/services/estimates.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser } from './helpers/factories.ts';

const snapshot = (over: Partial<EstimateSnapshot> = {}): EstimateSnapshot => ({
  secondsPerVideo: 20,
  samples: 5,
  queued: [],
  running: 1,
  ...over,
});

describe('etaSeconds', () => {
  it('is null before anything was measured, and for finished jobs', () => {
    expect(etaSeconds({ id: 1, status: 'queued', progress: 0 }, snapshot({ secondsPerVideo: null }))).toBeNull();
    expect(etaSeconds({ id: 1, status: 'completed', progress: 100 }, snapshot())).toBeNull();
  });

  it('is the rest of one render for a running job, and the renders ahead for a queued one', () => {
    expect(etaSeconds({ id: 1, status: 'in_progress', progress: 75 }, snapshot())).toBe(5);
    const s = snapshot({ queued: [10, 11, 12, 13], running: 2 });
    expect(etaSeconds({ id: 10, status: 'queued', progress: 0 }, s)).toBe(20);
    expect(etaSeconds({ id: 11, status: 'queued', progress: 0 }, s)).toBe(20);
    expect(etaSeconds({ id: 12, status: 'queued', progress: 0 }, s)).toBe(40);
    expect(etaSeconds({ id: 13, status: 'queued', progress: 0 }, s)).toBe(40);
  });
});

describe.each(TEST_DIALECTS)('measured estimates over HTTP (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('GET /api/stats is public and reports the median render time once videos finished', async () => {
    const before = await fetch(`${server.url}/api/stats`);
    expect(before.status).toBe(200);
    const empty = (await before.json()) as Record<string, unknown>;
    expect(empty).toMatchObject({ seconds_per_video: null, videos_measured: 0, languages: 6 });
    expect(empty.actors).toBeGreaterThan(0);

    // Three finished renders of 10, 30 and 14 s (written as the runner writes them); the median is 14 s.
    const user = await registerUser(server);
    const projectId = await createProjectOverHttp(server, user, 'Measured');
    const db = server.ctx.db.kysely;
    const ids: number[] = [];
    for (const seconds of [10, 30, 14]) {
      const res = await fetch(`${server.url}/api/jobs/${projectId}/queue`, {
        method: 'POST',
        headers: user.authHeader,
      });
      const { id } = (await res.json()) as { id: number };
      ids.push(id);
      const start = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
      await db
        .updateTable('jobs')
        .set({
          status: 'completed',
          progress: 100,
          started_at: start.toISOString(),
          finished_at: new Date(start.getTime() + seconds * 1000).toISOString(),
        })
        .where('id', '=', id)
        .execute();
    }
    expect(await measureThroughput(server.ctx)).toEqual({ secondsPerVideo: 14, samples: 3 });
    const stats = (await (await fetch(`${server.url}/api/stats`)).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({ seconds_per_video: 14, videos_measured: 3 });

    // A new queued job (the runner is not started here) is one render away: 14 s.
    const res = await fetch(`${server.url}/api/jobs/${projectId}/queue`, { method: 'POST', headers: user.authHeader });
    const { id } = (await res.json()) as { id: number };
    await new Promise((r) => setTimeout(r, 2_100)); // past the snapshot's reuse window
    const job = (await (await fetch(`${server.url}/api/jobs/${id}`, { headers: user.authHeader })).json()) as {
      eta_seconds: number | null;
    };
    expect(job.eta_seconds).toBe(14);
    expect(await jobsRepository.findById(db, ids[0]!)).toBeTruthy();
  });
});
