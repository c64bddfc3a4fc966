import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { INSUFFICIENT_CREDITS, Job, JobEvent, MESSAGES, VALIDATION } from '@hookreel/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOB_DEFINITIONS } from '../src/job-definitions.ts';
import { assertJobDefinitions, InvalidJobPayloadError, PermanentJobError } from '../src/jobs/definition.ts';
import { jobsRepository } from '../src/db/repositories/jobs.ts';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { createJob, submitJobs } from '../src/services/jobs/index.ts';
import { mergeCharacterJob } from '../src/services/merge/jobs.ts';
import { renderProjectVideoJob } from '../src/services/projects/jobs.ts';
import { startJobRunner, startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertProject, insertUser, type InsertedUser } from './helpers/factories.ts';
import { eventsTicket, openJobEvents } from './helpers/job-events.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { waitFor } from './helpers/wait.ts';

describe('job definitions', () => {
  it('are registered each under its own name, with a handler and a payload schema, checked at boot', () => {
    expect(() => assertJobDefinitions(JOB_DEFINITIONS)).not.toThrow();
    expect(Object.keys(JOB_DEFINITIONS).sort()).toEqual(
      [
        'check-cutout',
        'deliver-webhook',
        'generate-characters',
        'generate-preview',
        'make-mouth-stills',
        'make-photoreal-actor',
        'merge-character',
        'process-product',
        'render-creator-preview',
        'render-hook-video',
        'render-project-video',
      ].sort(),
    );
    expect(() => assertJobDefinitions({ ...JOB_DEFINITIONS, 'send-fax': renderProjectVideoJob })).toThrow(
      /send-fax is registered under another name \(render-project-video\)/,
    );
    expect(() =>
      assertJobDefinitions({ ...JOB_DEFINITIONS, 'merge-character': { ...mergeCharacterJob, handler: undefined } }),
    ).toThrow(/no handler for merge-character/);
    expect(() =>
      assertJobDefinitions({ ...JOB_DEFINITIONS, 'merge-character': { ...mergeCharacterJob, payload: undefined } }),
    ).toThrow(/no payload schema for merge-character/);
  });
});

for (const dialect of TEST_DIALECTS) {
  describe(`jobs API and runner (${dialect})`, () => {
    let server: TestServer;
    /** Its `during` is each test's own step in a render attempt (none by default). */
    const engine = recordingEngine({
      progress: [50, 'Voice ready'],
      content: (input) => `video of ${input.project.name} for job ${input.jobId}`,
      poster: true,
    });
    const api = (p: string) => `${server.url}/api${p}`;

    beforeAll(async () => {
      server = await startTestServer({ dialect });
      await startJobRunner(server, { pollMs: 50, retryBaseMs: 100, leaseMs: 3000, heartbeatMs: 300 }, engine);
    });
    afterAll(() => server.close());
    beforeEach(() => {
      engine.during = null;
    });

    const queue = (projectId: number, headers: Record<string, string>) =>
      fetch(api(`/jobs/${projectId}/queue`), { method: 'POST', headers });
    const getJob = async (id: number, headers: Record<string, string>) => {
      const res = await fetch(api(`/jobs/${id}`), { headers });
      return res.status === 200 ? Job.parse(await res.json()) : null;
    };
    /** Queues a render of a new project of the user's; the job's id. */
    const queueNewProject = async (u: InsertedUser) =>
      ((await (await queue(await insertProject(server, u.id), u.headers)).json()) as { id: number }).id;
    /** The job once it has reached `status`. */
    const jobWhen = (status: 'completed' | 'failed', id: number, headers: Record<string, string>) =>
      waitFor(async () => {
        const j = await getJob(id, headers);
        return j?.status === status ? j : null;
      });
    /** How many attempts the runner has made at the job. */
    const attemptsOf = async (id: number) =>
      (await server.ctx.db.kysely.selectFrom('jobs').select('attempts').where('id', '=', id).executeTakeFirstOrThrow())
        .attempts;
    const holdOf = (jobId: number) =>
      server.ctx.db.kysely
        .selectFrom('jobs')
        .innerJoin('credit_holds', 'credit_holds.id', 'jobs.hold_id')
        .select(['credit_holds.state', 'credit_holds.id'])
        .where('jobs.id', '=', jobId)
        .executeTakeFirstOrThrow();
    const expectLedger = async (userId: number) => {
      const b = await ledgerBalances(server.ctx.db.kysely, userId);
      expect(b.granted).toBe(b.available + b.held + b.consumed);
      expect(b.held).toBe(b.heldByHolds);
      expect(b.available).toBeGreaterThanOrEqual(0);
      return b;
    };
    /** The user has no job and holds nothing: `available` (hundredths) is all still spendable. */
    const expectNothingQueued = async (u: InsertedUser, available: number) => {
      expect(await (await fetch(api('/jobs/'), { headers: u.headers })).json()).toEqual([]);
      expect(await expectLedger(u.id)).toMatchObject({ available, held: 0 });
    };

    it('answers 401 without a token on every route', async () => {
      for (const [method, p] of [
        ['GET', '/jobs/'],
        ['GET', '/jobs/1'],
        ['POST', '/jobs/1/queue'],
        ['DELETE', '/jobs/1'],
        ['GET', '/jobs/events'],
      ] as const) {
        const res = await fetch(api(p), { method });
        expect(res.status, `${method} ${p}`).toBe(401);
        expect(await res.json()).toEqual({ detail: MESSAGES.server.unauthorized });
      }
    });

    it('queues a render, reports progress and completes with the credits captured', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await insertProject(server, u.id, 'Lifecycle');
      const res = await queue(projectId, u.headers);
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };

      const done = await jobWhen('completed', id, u.headers);
      expect(done).toMatchObject({
        id,
        project_id: projectId,
        project_name: 'Lifecycle',
        kind: 'render-project-video',
        progress: 100,
        error: null,
      });
      expect(done.video_url).toMatch(new RegExp(`^static/users/${u.id}/jobs/${id}-[\\w-]+/video\\.mp4$`));
      expect(done.poster_url).toMatch(/poster\.jpg$/);
      expect(done.logs).toEqual(expect.arrayContaining(['Queued', 'Processing started', 'Video ready']));
      // Stages carry their duration once they end ('Voice ready — 0.3 s'); each appears once.
      expect(done.logs.filter((l) => /^Voice ready( — [\d.]+ s)?$/.test(l))).toHaveLength(1);

      const video = await fetch(`${server.url}/api/${done.video_url}`);
      expect(video.status).toBe(200);
      expect(await video.text()).toBe(`video of Lifecycle for job ${id}`);

      expect((await holdOf(id)).state).toBe('captured');
      const b = await expectLedger(u.id);
      expect(b).toMatchObject({ available: 200, held: 0, consumed: 100 });

      const list = (await (await fetch(api('/jobs/'), { headers: u.headers })).json()) as unknown[];
      expect(list.map((j) => Job.parse(j).id)).toEqual([id]);
    });

    it("hides another user's job and project behind 404", async () => {
      const owner = await insertUser(server, { credits: 2 });
      const other = await insertUser(server, { credits: 2 });
      const projectId = await insertProject(server, owner.id);
      const { id } = (await (await queue(projectId, owner.headers)).json()) as { id: number };

      const get = await fetch(api(`/jobs/${id}`), { headers: other.headers });
      expect(get.status).toBe(404);
      expect(await get.json()).toEqual({ detail: MESSAGES.jobs.notFound });
      expect((await fetch(api(`/jobs/${id}`), { method: 'DELETE', headers: other.headers })).status).toBe(404);
      const q = await queue(projectId, other.headers);
      expect(q.status).toBe(404);
      expect(await q.json()).toEqual({ detail: 'Not found' });
      expect(await (await fetch(api('/jobs/'), { headers: other.headers })).json()).toEqual([]);
      expect((await fetch(api('/jobs/abc'), { headers: other.headers })).status).toBe(404);
      expect((await queue(999_999, owner.headers)).status).toBe(404);
      expect((await ledgerBalances(server.ctx.db.kysely, other.id)).held).toBe(0);
    });

    it('answers 402 with the documented message when credits are short, and reserves nothing', async () => {
      const u = await insertUser(server, { credits: 0.5 });
      const projectId = await insertProject(server, u.id);
      const res = await queue(projectId, u.headers);
      expect(res.status).toBe(402);
      // The amount missing comes with the message, so the screen can say how much to buy.
      expect(await res.json()).toEqual({
        detail: INSUFFICIENT_CREDITS.videos,
        required: 1,
        available: 0.5,
        missing: 0.5,
      });
      await expectNothingQueued(u, 50);
    });

    it("answers 422 'Script is required' for a project without a script, and reserves nothing", async () => {
      const u = await insertUser(server, { credits: 5 });
      const projectId = await insertProject(server, u.id);
      for (const script of ['', '   \n ']) {
        await projectsRepository.update(server.ctx.db.kysely, u.id, projectId, { script });
        const res = await queue(projectId, u.headers);
        expect(res.status).toBe(422);
        expect(await res.json()).toEqual({ detail: VALIDATION.scriptRequired });
      }
      await expectNothingQueued(u, 500);
    });

    it("answers 422 'Select at least one actor' for a project without a character, and reserves nothing", async () => {
      const u = await insertUser(server, { credits: 5 });
      const projectId = await insertProject(server, u.id);
      // The editor's 'remove' on the only character: an empty selection over HTTP.
      const cleared = await fetch(api(`/projects/${projectId}/selected-characters`), {
        method: 'POST',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ character_ids: [] }),
      });
      expect(cleared.status).toBe(200);
      expect(
        ((await cleared.json()) as { characters: Array<{ selected: boolean }> }).characters.filter((c) => c.selected),
      ).toEqual([]);
      const res = await queue(projectId, u.headers);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: VALIDATION.selectOneActor });
      await expectNothingQueued(u, 500);
    });

    it('retries a failing run with backoff and completes on a later attempt', async () => {
      engine.during = async (_input, attempt) => {
        if (attempt < 3) throw new Error(`flaky encoder ${attempt}`);
      };
      const u = await insertUser(server, { credits: 1 });
      const id = await queueNewProject(u);
      const done = await jobWhen('completed', id, u.headers);
      expect(done.logs.filter((l) => l.startsWith('Attempt'))).toEqual([
        expect.stringMatching(/^Attempt 1 failed: flaky encoder 1\. Retrying in \d+ s$/),
        expect.stringMatching(/^Attempt 2 failed: flaky encoder 2\./),
      ]);
      expect(await attemptsOf(id)).toBe(3);
      expect((await holdOf(id)).state).toBe('captured');
      await expectLedger(u.id);
    });

    it('fails after max attempts and releases the hold exactly once', async () => {
      engine.during = async () => {
        throw new Error('ffmpeg exited with code 1');
      };
      const u = await insertUser(server, { credits: 1 });
      const id = await queueNewProject(u);
      const failed = await jobWhen('failed', id, u.headers);
      expect(failed.error).toBe('ffmpeg exited with code 1');
      expect(failed.logs.at(-1)).toBe('Failed: ffmpeg exited with code 1');
      const hold = await holdOf(id);
      expect(hold.state).toBe('released');
      const entries = await server.ctx.db.kysely
        .selectFrom('credit_entries')
        .select('kind')
        .where('hold_id', '=', hold.id)
        .execute();
      expect(entries.map((e) => e.kind).sort()).toEqual(['hold', 'release']);
      expect(await expectLedger(u.id)).toMatchObject({ available: 100, held: 0, consumed: 0 });
    });

    it('fails at once on a permanent error (project deleted before the run)', async () => {
      engine.during = async () => {
        throw new PermanentJobError('Script is empty');
      };
      const u = await insertUser(server, { credits: 1 });
      const id = await queueNewProject(u);
      const failed = await jobWhen('failed', id, u.headers);
      expect(failed.error).toBe('Script is empty');
      expect(await attemptsOf(id)).toBe(1);
      expect((await holdOf(id)).state).toBe('released');
    });

    it('refuses a payload that fails its schema at creation: no row, no hold', async () => {
      const u = await insertUser(server, { credits: 2 });
      const projectId = await insertProject(server, u.id, 'Bad payload');
      for (const payload of [{ projectId: 'seven' }, {}, { projectId, avatarId: -1 }]) {
        await expect(
          submitJobs(server.ctx, u.id, async (trx) => ({
            jobIds: [
              await createJob(trx, renderProjectVideoJob, {
                userId: u.id,
                // The compiler refuses these; a caller that slips past it (a cast, JSON from outside) is caught here.
                payload: payload as unknown as { projectId: number },
                projectName: 'Bad payload',
                projectId,
                price: 'video',
              }),
            ],
          })),
        ).rejects.toBeInstanceOf(InvalidJobPayloadError);
      }
      const rows = await server.ctx.db.kysely.selectFrom('jobs').select('id').where('user_id', '=', u.id).execute();
      expect(rows).toEqual([]);
      expect(await expectLedger(u.id)).toMatchObject({ available: 200, held: 0, consumed: 0 });
    });

    it('fails a row whose stored payload no longer matches its schema, at once and with its credits released', async () => {
      let rendered = false;
      engine.during = async () => {
        rendered = true;
      };
      const u = await insertUser(server, { credits: 1 });
      const projectId = await insertProject(server, u.id, 'Corrupt payload');
      // Created properly (hold and all), then its payload damaged before any runner claims it.
      const { jobIds } = await server.ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await createJob(trx, renderProjectVideoJob, {
          userId: u.id,
          payload: { projectId },
          projectName: 'Corrupt payload',
          projectId,
          price: 'video',
        });
        await trx.updateTable('jobs').set({ payload: '{"projectId":"x"' }).where('id', '=', id).execute();
        return { jobIds: [id] };
      });
      const id = jobIds[0]!;
      await server.ctx.jobs.enqueue(id);
      const failed = await jobWhen('failed', id, u.headers);
      expect(failed.error).toBe("The job's payload is unreadable");
      expect(rendered).toBe(false);
      expect(await attemptsOf(id)).toBe(1);
      expect((await holdOf(id)).state).toBe('released');
      expect(await expectLedger(u.id)).toMatchObject({ available: 100, held: 0, consumed: 0 });

      // Readable JSON of the wrong shape fails the same way, naming the field.
      const { jobIds: more } = await server.ctx.db.kysely.transaction().execute(async (trx) => {
        const next = await createJob(trx, renderProjectVideoJob, {
          userId: u.id,
          payload: { projectId },
          projectName: 'Corrupt payload',
          projectId,
          price: 'video',
        });
        await trx.updateTable('jobs').set({ payload: '{"projectId":"x"}' }).where('id', '=', next).execute();
        return { jobIds: [next] };
      });
      await server.ctx.jobs.enqueue(more);
      const wrongShape = await jobWhen('failed', more[0]!, u.headers);
      expect(wrongShape.error).toMatch(/^The job's payload is invalid: projectId: /);
      expect((await holdOf(more[0]!)).state).toBe('released');
      expect(rendered).toBe(false);
      expect(await expectLedger(u.id)).toMatchObject({ available: 100, held: 0, consumed: 0 });
    });

    it('deletes a running job: aborts it, releases the hold, removes its files', async () => {
      let release!: () => void;
      const started = new Promise<void>((r) => (release = r));
      let sawAbort = false;
      engine.during = async (input) => {
        await input.onProgress(60, 'Encoding');
        release();
        await new Promise<void>((resolve) => {
          input.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve();
          });
        });
      };
      const u = await insertUser(server, { credits: 1 });
      const id = await queueNewProject(u);
      await started;
      const running = await getJob(id, u.headers);
      expect(running?.status).toBe('in_progress');
      const del = await fetch(api(`/jobs/${id}`), { method: 'DELETE', headers: u.headers });
      expect(del.status).toBe(204);
      await waitFor(async () => sawAbort);
      expect((await fetch(api(`/jobs/${id}`), { headers: u.headers })).status).toBe(404);
      const holds = await server.ctx.db.kysely
        .selectFrom('credit_holds')
        .select('state')
        .where('user_id', '=', u.id)
        .execute();
      expect(holds).toEqual([{ state: 'released' }]);
      expect(await expectLedger(u.id)).toMatchObject({ available: 100, held: 0, consumed: 0 });
      const jobsDir = path.join(server.ctx.config.filesDir, 'users', String(u.id), 'jobs');
      expect(existsSync(jobsDir) ? await readdir(jobsDir) : []).toEqual([]);
    });

    it('deleting a completed job keeps the credits consumed and removes the video', async () => {
      const u = await insertUser(server, { credits: 1 });
      const id = await queueNewProject(u);
      const done = await jobWhen('completed', id, u.headers);
      expect((await fetch(api(`/jobs/${id}`), { method: 'DELETE', headers: u.headers })).status).toBe(204);
      expect((await fetch(`${server.url}/api/${done.video_url}`)).status).toBe(404);
      expect(await expectLedger(u.id)).toMatchObject({ available: 0, held: 0, consumed: 100 });
    });

    it('replays an Idempotency-Key: one job, one hold, same id', async () => {
      engine.during = async (input) => {
        await new Promise((r) => setTimeout(r, 50));
        void input;
      };
      const u = await insertUser(server, { credits: 5 });
      const projectId = await insertProject(server, u.id);
      const headers = { ...u.headers, 'idempotency-key': 'generate-click-1' };
      const results = await Promise.all([
        queue(projectId, headers),
        queue(projectId, headers),
        queue(projectId, headers),
      ]);
      const ids = await Promise.all(results.map(async (r) => ((await r.json()) as { id: number }).id));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
      expect(new Set(ids).size).toBe(1);
      const later = await queue(projectId, headers);
      expect(later.headers.get('idempotent-replayed')).toBe('true');
      expect(((await later.json()) as { id: number }).id).toBe(ids[0]);
      const holds = await server.ctx.db.kysely
        .selectFrom('credit_holds')
        .select('id')
        .where('user_id', '=', u.id)
        .execute();
      expect(holds).toHaveLength(1);
      const other = await queue(await insertProject(server, u.id), headers);
      expect(other.status).toBe(409);
      await expectLedger(u.id);
    });

    it("streams only video jobs: a merge's updates stay off the stream the jobs screens list from", async () => {
      const u = await insertUser(server, { credits: 1 });
      const projectId = await insertProject(server, u.id, 'Streamed kinds');
      const stream = await openJobEvents(server.url, u.token);
      const at = new Date().toISOString();
      const row = (name: string) =>
        jobsRepository.insert(server.ctx.db.kysely, {
          user_id: u.id,
          name,
          project_id: projectId,
          project_name: 'Streamed kinds',
          status: 'completed',
          progress: 100,
          payload: JSON.stringify({ projectId }),
          logs: '[]',
          result: null,
          video_key: null,
          poster_key: null,
          error: null,
          attempts: 1,
          max_attempts: 3,
          run_after: at,
          file_token: `t${Math.random().toString(36).slice(2)}`,
          created_at: at,
          updated_at: at,
          started_at: at,
          finished_at: at,
        });
      const merge = await row(mergeCharacterJob.name);
      const video = await row(renderProjectVideoJob.name);
      server.ctx.jobEvents.publish({ userId: u.id, jobId: merge });
      server.ctx.jobEvents.publish({ userId: u.id, jobId: video });
      await waitFor(async () => stream.events.some((e) => e.job.id === video));
      await stream.close();
      expect(stream.events.map((e) => e.job.id)).toEqual([video]);
    });

    it('streams job updates over server-sent events (opened with a short-lived ticket)', async () => {
      engine.during = async () => {
        await new Promise((r) => setTimeout(r, 100));
      };
      const u = await insertUser(server, { credits: 1 });
      const projectId = await insertProject(server, u.id, 'Streamed');
      const controller = new AbortController();
      const ticket = await eventsTicket(server.url, u.token);
      const res = await fetch(api(`/jobs/events?ticket=${ticket}`), { signal: controller.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const events: JobEvent[] = [];
      const reading = (async () => {
        const decoder = new TextDecoder();
        let buf = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (data) events.push(JobEvent.parse(JSON.parse(data.slice(6))));
          }
          if (events.some((e) => e.job.status === 'completed')) break;
        }
      })().catch(() => undefined);
      const { id } = (await (await queue(projectId, u.headers)).json()) as { id: number };
      await waitFor(async () => events.some((e) => e.job.status === 'completed'));
      controller.abort();
      await reading;
      expect(events.every((e) => e.type === 'job' && e.job.id === id)).toBe(true);
      const statuses = events.map((e) => e.job.status);
      expect(statuses).toContain('in_progress');
      expect(statuses.at(-1)).toBe('completed');
      expect(events.at(-1)?.job.video_url).toMatch(/video\.mp4$/);
    });
  });
}
