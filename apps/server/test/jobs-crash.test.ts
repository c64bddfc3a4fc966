import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { queueProjectVideo } from '../src/services/projects/index.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertProject, insertUser } from './helpers/factories.ts';

const SRC = path.resolve(import.meta.dirname, '../src');
const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/**
 * A separate runner process over the shared database: its media port announces the job and then works for a
 * minute, so the test can kill it mid-job.
 */
const CHILD_RUNNER = `
import { loadConfig } from ${JSON.stringify(pathToFileURL(path.join(SRC, 'config.ts')).href)};
import { createContext, closeContext } from ${JSON.stringify(pathToFileURL(path.join(SRC, 'context.ts')).href)};
const config = loadConfig({ ...process.env, RUN_JOBS: 'true', WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' });
const ctx = await createContext(config);
ctx.jobSettings = { ...ctx.jobSettings, pollMs: 50, leaseMs: 1500, heartbeatMs: 250, shutdownGraceMs: 200 };
ctx.media = {
  ...ctx.media,
  async renderProjectVideo(input) {
    await input.onProgress(30, 'Working in the child');
    process.stdout.write('STARTED ' + input.jobId + '\\n');
    await new Promise((resolve, reject) => {
      const t = setTimeout(resolve, 60000);
      input.signal.addEventListener('abort', () => { clearTimeout(t); reject(input.signal.reason); });
    });
    throw new Error('the child should never finish');
  },
};
process.on('SIGTERM', () => void closeContext(ctx).then(() => process.exit(0)));
await ctx.jobs.start();
process.stdout.write('READY\\n');
`;

function startChild(
  scriptPath: string,
  env: Record<string, string>,
): { child: ChildProcess; started: Promise<number> } {
  // node itself with the tsx loader (not the tsx CLI, which would run the script in a grandchild that a
  // SIGKILL of the CLI leaves alive).
  const child = spawn(process.execPath, ['--import', 'tsx', scriptPath], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const started = new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /STARTED (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`child runner exited (${code}) before starting a job: ${err}`)));
  });
  return { child, started };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const dialect of TEST_DIALECTS) {
  describe(`runner crash recovery and graceful shutdown (${dialect})`, () => {
    let server: TestServer;
    let dir: string;
    let script: string;
    let userId: number;
    let projectId: number;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      server = await startTestServer({ dialect });
      server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, leaseMs: 3000, heartbeatMs: 300 };
      dir = await mkdtemp(path.join(tmpdir(), 'hookreel-child-'));
      script = path.join(dir, 'child-runner.mts');
      await writeFile(script, CHILD_RUNNER);
      ({ id: userId } = await insertUser(server, { credits: 5 }));
      projectId = await insertProject(server, userId, 'Crashy');
    });
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    const childEnv = () => ({
      DATA_DIR: server.ctx.config.dataDir,
      DATABASE_URL: server.ctx.config.databaseUrl,
      WEB_DIST: path.join(dir, 'no-web'),
    });
    const row = (id: number) =>
      server.ctx.db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('a runner killed with SIGKILL mid-job: another picks the job up after the lease expires; the hold resolves once', async () => {
      const { id } = await queueProjectVideo(server.ctx, userId, projectId);
      const { child, started } = startChild(script, childEnv());
      children.push(child);
      expect(await started).toBe(id);
      const before = await row(id);
      expect(before).toMatchObject({ status: 'in_progress', attempts: 1 });
      expect(before.lease_owner).toBeTruthy();

      child.kill('SIGKILL');
      await exited(child);

      // A new runner (this process) with a fast render; it must not take the job while the dead lease is live.
      server.ctx.media = {
        ...server.ctx.media,
        async renderProjectVideo(input) {
          const videoPath = path.join(input.workDir, 'v.mp4');
          await writeFile(videoPath, 'recovered');
          return { videoPath };
        },
      };
      await server.ctx.jobs.start();
      const soon = await row(id);
      if (soon.lease_expires_at! > new Date().toISOString()) expect(soon.lease_owner).toBe(before.lease_owner);

      const done = await waitFor(async () => {
        const r = await row(id);
        return r.status === 'completed' || r.status === 'failed' ? r : null;
      });
      expect(done.status).toBe('completed');
      expect(done.attempts).toBe(2);
      expect(JSON.parse(done.logs)).toEqual(
        expect.arrayContaining(['Working in the child', 'Retrying (attempt 2 of 3)', 'Video ready']),
      );
      const entries = await server.ctx.db.kysely
        .selectFrom('credit_entries')
        .select('kind')
        .where('hold_id', '=', done.hold_id)
        .execute();
      expect(entries.map((e) => e.kind).sort()).toEqual(['capture', 'hold']);
      const b = await ledgerBalances(server.ctx.db.kysely, userId);
      expect(b.granted).toBe(b.available + b.held + b.consumed);
      expect(b).toMatchObject({ held: 0, consumed: 100 });
      await server.ctx.jobs.stop();
    });

    // Hand-back logic does not depend on the dialect; one child boot (~5 s) is enough.
    if (dialect === TEST_DIALECTS[0])
      it('a runner stopped with SIGTERM hands its job back (queued, lease cleared) and another finishes it', async () => {
        const { id } = await queueProjectVideo(server.ctx, userId, projectId);
        const { child, started } = startChild(script, childEnv());
        children.push(child);
        expect(await started).toBe(id);
        child.kill('SIGTERM');
        await exited(child);
        expect(child.exitCode).toBe(0);
        const handed = await row(id);
        expect(handed).toMatchObject({ status: 'queued', lease_owner: null, lease_expires_at: null, attempts: 0 });
        expect(JSON.parse(handed.logs)).toContain('Paused while the server restarts; will resume');
        const hold = await server.ctx.db.kysely
          .selectFrom('credit_holds')
          .select('state')
          .where('id', '=', handed.hold_id)
          .executeTakeFirstOrThrow();
        expect(hold.state).toBe('held');

        await server.ctx.jobs.start();
        const done = await waitFor(async () => {
          const r = await row(id);
          return r.status === 'completed' ? r : null;
        });
        expect(done.attempts).toBe(1);
        const b = await ledgerBalances(server.ctx.db.kysely, userId);
        expect(b.granted).toBe(b.available + b.held + b.consumed);
        expect(b).toMatchObject({ held: 0, consumed: 200 });
      });
  });
}
