import { randomUUID } from 'node:crypto';
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanWorkDirs, withUploadDir } from '../src/jobs/work-dirs.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser } from './helpers/factories.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { waitFor } from './hook-helpers.ts';

/** Work directories a killed process left in DATA_DIR/work are removed at start; a running job's is kept. */
/** A work folder `name` with half a render in it, as an attempt leaves one. */
async function leftoverDir(server: TestServer, name: string) {
  await mkdir(path.join(server.ctx.config.workDir, name), { recursive: true });
  await writeFile(path.join(server.ctx.config.workDir, name, 'part.mp4'), 'half a render');
}

/** Queues the render of a new user's new project `name`; returns the job's id. */
async function queuedJob(server: TestServer, name: string): Promise<number> {
  const user = await registerUser(server);
  const projectId = await createProjectOverHttp(server, user, name);
  const queued = await fetch(`${server.url}/api/jobs/${projectId}/queue`, { method: 'POST', headers: user.authHeader });
  return ((await queued.json()) as { id: number }).id;
}

describe.each(TEST_DIALECTS)('orphaned work directories (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  it('removes the directories of jobs that are not running, keeps the running ones and anything else', async () => {
    const jobId = await queuedJob(t.server, 'Sweep');
    // As if a worker had claimed it and is rendering now.
    await t.server.ctx.db.kysely.updateTable('jobs').set({ status: 'in_progress' }).where('id', '=', jobId).execute();
    await leftoverDir(t.server, `job-${jobId}-live0001`);
    await leftoverDir(t.server, 'job-999999-dead0001');
    await leftoverDir(t.server, `job-${jobId + 1000}-dead0002`);
    await leftoverDir(t.server, 'not-a-job');

    expect((await sweepOrphanWorkDirs(t.server.ctx)).sort()).toEqual([
      `job-${jobId + 1000}-dead0002`,
      'job-999999-dead0001',
    ]);
    expect((await readdir(t.server.ctx.config.workDir)).sort()).toEqual([`job-${jobId}-live0001`, 'not-a-job']);
    // Done with it: the runner the next test starts must not pick it up and render for real.
    await t.server.ctx.db.kysely.updateTable('jobs').set({ status: 'failed' }).where('id', '=', jobId).execute();
  });

  it('starting the job runner sweeps', async () => {
    await leftoverDir(t.server, 'job-888888-dead0003');
    await t.server.ctx.jobs.start();
    await waitFor(
      async () => !(await readdir(t.server.ctx.config.workDir)).includes('job-888888-dead0003'),
      10_000,
      'the sweep',
    );
    await t.server.ctx.jobs.stop();
  });
});

/** Decision 181: folders are cleaned while the runner runs, not only when it starts. */
describe.each(TEST_DIALECTS)('work folders cleaned while running (%s)', (dialect) => {
  let server: TestServer;
  const engine = recordingEngine();
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.ctx.media = engine;
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, workSweepMs: 100 };
  });
  afterAll(async () => {
    await server?.ctx.jobs.stop();
    await server?.close();
  });

  const workNames = async () => (await readdir(server.ctx.config.workDir).catch(() => [] as string[])).sort();

  it('a runner that claims a job removes the folders its killed attempt left, before running it', async () => {
    const jobId = await queuedJob(server, 'Killed mid-render');
    // As a process killed mid-render leaves it: in progress under a lease that has run out, and its folder.
    await server.ctx.db.kysely
      .updateTable('jobs')
      .set({
        status: 'in_progress',
        lease_owner: 'dead-host:1:x',
        lease_expires_at: '2000-01-01T00:00:00.000Z',
        attempts: 1,
      })
      .where('id', '=', jobId)
      .execute();
    await leftoverDir(server, `job-${jobId}-killed01`);
    const during: string[][] = [];
    engine.during = async () => {
      during.push(await workNames());
    };
    await server.ctx.jobs.start();
    await waitFor(
      async () =>
        (await server.ctx.db.kysely.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirst())
          ?.status === 'completed',
      20_000,
      'the second attempt',
    );
    engine.during = null;
    // While the second attempt ran, only its own folder was there; afterwards none.
    expect(during).toHaveLength(1);
    expect(during[0]!.filter((n) => n.startsWith(`job-${jobId}-`))).toHaveLength(1);
    expect(during[0]).not.toContain(`job-${jobId}-killed01`);
    expect((await workNames()).filter((n) => n.startsWith(`job-${jobId}-`))).toEqual([]);
  });

  it('sweeps orphans and stale upload folders every JOB_WORK_SWEEP_MS, without a restart', async () => {
    await server.ctx.jobs.start(); // already running from the test above, or starts now
    const stale = `upload-${randomUUID()}`;
    const fresh = `upload-${randomUUID()}`;
    await leftoverDir(server, 'job-777777-dead0004');
    await leftoverDir(server, stale);
    await leftoverDir(server, fresh);
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    await utimes(path.join(server.ctx.config.workDir, stale), elevenMinutesAgo, elevenMinutesAgo);
    await waitFor(
      async () => {
        const names = await workNames();
        return !names.includes('job-777777-dead0004') && !names.includes(stale);
      },
      10_000,
      'the periodic sweep',
    );
    expect(await workNames()).toContain(fresh); // an upload still being checked keeps its folder
  });

  it("an upload's check folder is removed when the check throws", async () => {
    let inside = '';
    await expect(
      withUploadDir(server.ctx, async (dir) => {
        inside = dir;
        await writeFile(path.join(dir, 'in.mp3'), 'bytes');
        throw new Error('the check failed');
      }),
    ).rejects.toThrow('the check failed');
    expect(path.dirname(inside)).toBe(server.ctx.config.workDir);
    expect((await stat(inside).catch(() => null)) === null).toBe(true);
  });
});

describe('an API process that runs no jobs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RUN_JOBS: 'false' } });
  });
  afterAll(async () => {
    await server?.ctx.jobs.stop();
    await server?.close();
  });

  it('sweeps the stale upload folders (uploads are checked there) and leaves job folders to the runners', async () => {
    const stale = `upload-${randomUUID()}`;
    for (const name of [stale, 'job-555555-dead0005']) {
      await mkdir(path.join(server.ctx.config.workDir, name), { recursive: true });
    }
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(path.join(server.ctx.config.workDir, stale), old, old);
    await server.ctx.jobs.start();
    await waitFor(async () => !(await readdir(server.ctx.config.workDir)).includes(stale), 10_000, 'the upload sweep');
    expect(await readdir(server.ctx.config.workDir)).toContain('job-555555-dead0005');
  });
});
