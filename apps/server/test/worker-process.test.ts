import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, toHundredths } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { userApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/**
 * `npm run worker` without REDIS_URL: the embedded runner in a process of its own, against the API's database and
 * files. It must stay up with nothing to do, render what the API queues, and stop cleanly on SIGTERM.
 */
describe('the worker process (embedded runner)', () => {
  let server: TestServer;
  let user: TestUser;
  let worker: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_MS: '100' } }); // an API whose own runner stays off
    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(5), 'test');
    worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        DATA_DIR: server.ctx.config.dataDir,
        DATABASE_URL: server.ctx.config.databaseUrl,
        JOB_POLL_MS: '100',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    worker.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    exited = new Promise((resolve) => worker.once('exit', (code) => resolve(code)));
    await waitFor(async () => output.includes('[worker] running'), 60_000);
  }, 90_000);
  afterAll(async () => {
    if (worker.exitCode === null) worker.kill('SIGKILL');
    await server?.close();
  });

  const { api, getJob } = userApi(() => ({ server, user }), 20_000);

  it('stays up with nothing to do, renders a queued video, and exits 0 on SIGTERM', async () => {
    await new Promise((r) => setTimeout(r, 1_500));
    expect(worker.exitCode).toBeNull();

    const projectId = await createProjectOverHttp(server, user, 'Worker made');
    const queued = await api(`/jobs/${projectId}/queue`, { method: 'POST' });
    expect(queued.status).toBe(201);
    const { id } = (await queued.json()) as { id: number };
    const done = await waitFor(async () => {
      const j = await getJob(id);
      return j?.status === 'completed' || j?.status === 'failed' ? j : null;
    }, 150_000);
    expect(done.status, `${done.logs.join(' | ')}\n${output}`).toBe('completed');
    expect(done.video_url).toBeTruthy();
    const video = await fetch(`${server.url}/api/${done.video_url}`);
    expect(video.status).toBe(200);
    expect(
      Buffer.from(await video.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');

    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('[worker] SIGTERM');
  }, 180_000);
});
