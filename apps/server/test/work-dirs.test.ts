import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanWorkDirs } from '../src/jobs/work-dirs.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser } from './helpers/factories.ts';
import { waitFor } from './hook-helpers.ts';

/** Work directories a killed process left in DATA_DIR/work are removed at start; a running job's is kept. */
describe.each(TEST_DIALECTS)('orphaned work directories (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server?.close());

  const makeDir = async (name: string) => {
    await mkdir(path.join(server.ctx.config.workDir, name), { recursive: true });
    await writeFile(path.join(server.ctx.config.workDir, name, 'part.mp4'), 'half a render');
  };

  it('removes the directories of jobs that are not running, keeps the running ones and anything else', async () => {
    const user = await registerUser(server);
    const projectId = await createProjectOverHttp(server, user, 'Sweep');
    const queued = await fetch(`${server.url}/api/jobs/${projectId}/queue`, {
      method: 'POST',
      headers: user.authHeader,
    });
    const jobId = ((await queued.json()) as { id: number }).id;
    // As if a worker had claimed it and is rendering now.
    await server.ctx.db.kysely.updateTable('jobs').set({ status: 'in_progress' }).where('id', '=', jobId).execute();
    await makeDir(`job-${jobId}-live0001`);
    await makeDir('job-999999-dead0001');
    await makeDir(`job-${jobId + 1000}-dead0002`);
    await makeDir('not-a-job');

    expect((await sweepOrphanWorkDirs(server.ctx)).sort()).toEqual([
      `job-${jobId + 1000}-dead0002`,
      'job-999999-dead0001',
    ]);
    expect((await readdir(server.ctx.config.workDir)).sort()).toEqual([`job-${jobId}-live0001`, 'not-a-job']);
    // Done with it: the runner the next test starts must not pick it up and render for real.
    await server.ctx.db.kysely.updateTable('jobs').set({ status: 'failed' }).where('id', '=', jobId).execute();
  });

  it('starting the job runner sweeps', async () => {
    await makeDir('job-888888-dead0003');
    await server.ctx.jobs.start();
    await waitFor(
      async () => !(await readdir(server.ctx.config.workDir)).includes('job-888888-dead0003'),
      10_000,
      'the sweep',
    );
    await server.ctx.jobs.stop();
  });
});
