import { describe, expect, it } from 'vitest';
import { jobsRepository } from '../src/db/repositories/jobs.ts';
import { etaSeconds, measureThroughput, type EstimateSnapshot } from '../src/services/jobs/estimates.ts';

import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser } from './helpers/factories.ts';

const snapshot = (over: Partial<EstimateSnapshot> = {}): EstimateSnapshot => ({
  secondsPerVideo: 20,
  realisticSecondsPerVideo: null,
  samples: 5,
  queued: [],
  running: 1,
  ...over,
});

const DRAFT = JSON.stringify({ projectId: 1, quality: 'draft' });
const REALISTIC = JSON.stringify({ projectId: 1, quality: 'realistic' });

describe('etaSeconds', () => {
  it('is null before anything was measured, and for finished jobs', () => {
    expect(
      etaSeconds({ id: 1, status: 'queued', progress: 0, payload: DRAFT }, snapshot({ secondsPerVideo: null })),
    ).toBeNull();
    expect(etaSeconds({ id: 1, status: 'completed', progress: 100, payload: DRAFT }, snapshot())).toBeNull();
  });

  it('is the rest of one render for a running job, and the renders ahead for a queued one', () => {
    expect(etaSeconds({ id: 1, status: 'in_progress', progress: 75, payload: DRAFT }, snapshot())).toBe(5);
    const s = snapshot({ queued: [10, 11, 12, 13], running: 2 });
    expect(etaSeconds({ id: 10, status: 'queued', progress: 0, payload: DRAFT }, s)).toBe(20);
    expect(etaSeconds({ id: 11, status: 'queued', progress: 0, payload: DRAFT }, s)).toBe(20);
    expect(etaSeconds({ id: 12, status: 'queued', progress: 0, payload: DRAFT }, s)).toBe(40);
    expect(etaSeconds({ id: 13, status: 'queued', progress: 0, payload: DRAFT }, s)).toBe(40);
  });

  it("times a Realistic video by Realistic renders only, never by a Draft's seconds", () => {
    const running = { id: 1, status: 'in_progress', progress: 50, payload: REALISTIC };
    expect(etaSeconds(running, snapshot())).toBeNull();
    expect(etaSeconds(running, snapshot({ realisticSecondsPerVideo: 180 }))).toBe(90);
    const s = snapshot({ realisticSecondsPerVideo: 180, queued: [10, 11], running: 1 });
    expect(etaSeconds({ id: 11, status: 'queued', progress: 0, payload: REALISTIC }, s)).toBe(360);
    // A job from before qualities existed is a draft.
    expect(etaSeconds({ id: 10, status: 'queued', progress: 0, payload: '{}' }, s)).toBe(20);
  });
});

describe.each(TEST_DIALECTS)('measured estimates over HTTP (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  it('GET /api/stats is public and reports the median render time once videos finished', async () => {
    const before = await fetch(`${t.server.url}/api/stats`);
    expect(before.status).toBe(200);
    const empty = (await before.json()) as Record<string, unknown>;
    expect(empty).toMatchObject({ seconds_per_video: null, videos_measured: 0, languages: 6 });
    expect(empty.actors).toBeGreaterThan(0);

    // Three finished renders of 10, 30 and 14 s (written as the runner writes them); the median is 14 s.
    const user = await registerUser(t.server);
    const projectId = await createProjectOverHttp(t.server, user, 'Measured');
    const db = t.server.ctx.db.kysely;
    const ids: number[] = [];
    for (const seconds of [10, 30, 14]) {
      const res = await fetch(`${t.server.url}/api/jobs/${projectId}/queue`, {
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
    expect(await measureThroughput(t.server.ctx)).toEqual({ secondsPerVideo: 14, samples: 3 });
    expect(await measureThroughput(t.server.ctx, undefined, 'draft')).toEqual({ secondsPerVideo: 14, samples: 3 });
    expect(await measureThroughput(t.server.ctx, undefined, 'realistic')).toEqual({
      secondsPerVideo: null,
      samples: 0,
    });
    // A Realistic render of 200 s (the providers' time) is measured apart: the drafts' median stays 14 s.
    const slow = ids[1]!;
    await db
      .updateTable('jobs')
      .set({ payload: JSON.stringify({ projectId, quality: 'realistic' }) })
      .where('id', '=', slow)
      .execute();
    await db
      .updateTable('jobs')
      .set({ finished_at: new Date(Date.UTC(2026, 0, 1, 12, 3, 20)).toISOString() })
      .where('id', '=', slow)
      .execute();
    expect(await measureThroughput(t.server.ctx, undefined, 'realistic')).toEqual({ secondsPerVideo: 200, samples: 1 });
    expect(await measureThroughput(t.server.ctx, undefined, 'draft')).toEqual({ secondsPerVideo: 12, samples: 2 });
    // Restored: the figures below are the three drafts'.
    await db
      .updateTable('jobs')
      .set({
        payload: JSON.stringify({ projectId, quality: 'draft' }),
        finished_at: new Date(Date.UTC(2026, 0, 1, 12, 0, 30)).toISOString(),
      })
      .where('id', '=', slow)
      .execute();
    const stats = (await (await fetch(`${t.server.url}/api/stats`)).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({ seconds_per_video: 14, videos_measured: 3 });

    // A new queued job (the runner is not started here) is one render away: 14 s.
    const res = await fetch(`${t.server.url}/api/jobs/${projectId}/queue`, {
      method: 'POST',
      headers: user.authHeader,
    });
    const { id } = (await res.json()) as { id: number };
    await new Promise((r) => setTimeout(r, 2_100)); // past the snapshot's reuse window
    const job = (await (await fetch(`${t.server.url}/api/jobs/${id}`, { headers: user.authHeader })).json()) as {
      eta_seconds: number | null;
    };
    expect(job.eta_seconds).toBe(14);
    expect(await jobsRepository.findById(db, ids[0]!)).toBeTruthy();
  });
});
