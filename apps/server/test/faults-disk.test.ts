import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, ledgerBalances, toHundredths } from '../src/services/billing/credits.ts';
import { startJobRunner, startTestServer, type TestServer } from './helpers/app.ts';
import { fillableDisk, type FillableDisk } from './helpers/fault-proxy-disk.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { noisyPng, projectForm } from './helpers/images.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { userApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * The disk full in embedded mode (SQLite + files under DATA_DIR). The users' file area sits on a disk the test
 * fills for real (a full tmpfs where mounting is allowed, else a file-size limit on this process: see
 * fillableDisk). Uploads answer 503 with a message that says why and leave no partial file; a render whose
 * output cannot be written fails after its retries with its credits released; once space is back, both work.
 */

const HANG_MS = 30_000;
const MB = 1024 * 1024;

/** Every regular file under dir (recursively), relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('disk full in embedded mode', () => {
  let server: TestServer;
  let disk: FillableDisk;
  let usersDir: string;
  let user: TestUser;
  let projectId: number;
  /** Over the limit in either way of filling the disk (see beforeAll). */
  let bigEnough: number;
  let outputBytes = 256 * 1024;

  beforeAll(async () => {
    server = await startTestServer();
    await startJobRunner(
      server,
      { retryBaseMs: 100, retryMaxMs: 400 },
      recordingEngine({ content: () => randomBytes(outputBytes) }),
    );

    // Empty the WAL into the database so the per-file limit (rlimit way) can sit just above the database.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(server.ctx.db.kysely);
    const dbFile = server.ctx.config.databaseUrl.replace(/^sqlite:\/\//, '');
    const limit = (await stat(dbFile)).size + 2 * MB;
    usersDir = path.join(server.ctx.config.filesDir, 'users');
    disk = await fillableDisk(usersDir, limit);
    bigEnough = disk.kind === 'rlimit' ? limit + MB : 64 * 1024;
    if (disk.kind === 'rlimit') outputBytes = limit + MB;

    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(10), 'test');
    projectId = await createProjectOverHttp(server, user, 'Disk full');
  });

  afterAll(async () => {
    await disk?.free();
    await disk?.close(); // unmounted before the server's data directory is removed
    await server?.close();
  });

  const { api, getJob } = userApi(() => ({ server, user }), HANG_MS);
  const upload = async (image: Buffer) =>
    api('/projects/', { method: 'POST', body: projectForm('With a product photo', image) });
  const queue = async () => {
    const res = await api(`/jobs/${projectId}/queue`, { method: 'POST' });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const countProjects = async () => ((await (await api('/projects/')).json()) as unknown[]).length;

  it('refuses uploads with 503, fails renders cleanly with credits back, and works again once space is back', async () => {
    // A big image, so it cannot fit whichever way the disk is full.
    let side = 300;
    let image = await noisyPng(side, side);
    while (image.length < bigEnough) {
      side = Math.ceil(side * Math.sqrt((bigEnough * 1.3) / image.length));
      image = await noisyPng(side, side);
    }
    const projectsBefore = await countProjects();
    const filesBefore = await filesUnder(usersDir);
    const balanceBefore = await ledgerBalances(server.ctx.db.kysely, user.id);

    await disk.fill();
    try {
      const refused = await upload(image);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/out of storage space/i);
      expect(await countProjects()).toBe(projectsBefore);
      // Atomic writes: the half-written temp file was removed, nothing else was added.
      expect((await filesUnder(usersDir)).filter((f) => f !== '.filler')).toEqual(
        filesBefore.filter((f) => f !== '.filler'),
      );

      // The render's output cannot be written: each attempt fails, the last one fails the job and releases the
      // credits held for it.
      const jobId = await queue();
      const failed = await waitFor(async () => {
        const j = await getJob(jobId);
        return j?.status === 'failed' ? j : null;
      });
      // Said plainly, without the server's paths that the system error names.
      expect(failed.error).toBe(`The server ran out of storage space (${disk.code})`);
      expect(failed.logs.filter((l) => /^Attempt \d failed/.test(l))).toHaveLength(2);
      expect(failed.video_url).toBeNull();
      const b = await ledgerBalances(server.ctx.db.kysely, user.id);
      expect(b.held).toBe(balanceBefore.held);
      expect(b.available).toBe(balanceBefore.available);
      expect(b.consumed).toBe(balanceBefore.consumed);
      expect((await filesUnder(usersDir)).filter((f) => f !== '.filler')).toEqual(
        filesBefore.filter((f) => f !== '.filler'),
      );
    } finally {
      await disk.free();
    }

    // Space is back: no restart, the same requests succeed.
    const ok = await upload(image);
    expect(ok.status).toBe(200);
    const { id } = (await ok.json()) as { id: number };
    const project = (await (await api(`/projects/${id}`)).json()) as { file_path: string };
    const served = await api(`/static/${project.file_path}`);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(side);

    const jobId = await queue();
    const done = await waitFor(async () => {
      const j = await getJob(jobId);
      return j?.status === 'completed' ? j : null;
    });
    expect(Buffer.from(await (await api(`/${done.video_url}`)).arrayBuffer()).length).toBe(outputBytes);
    const after = await ledgerBalances(server.ctx.db.kysely, user.id);
    expect(after.held).toBe(0);
    expect(after.consumed).toBe(balanceBefore.consumed + 100);
    expect(after.granted).toBe(after.available + after.held + after.consumed);
  });
});
