import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, ledgerBalances, toHundredths } from '../src/services/billing/credits.ts';
import type { FileStore } from '../src/storage/file-store.ts';
import { startJobRunner, startTestServer, type TestServer } from './helpers/app.ts';
import { startHttpFaultProxy, type HttpFaultProxy } from './helpers/fault-proxy-http.ts';
import { registerUser, selectFirstActor, TEST_SCRIPT, type TestUser } from './helpers/factories.ts';
import { noisyPng, projectForm } from './helpers/images.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { startS3Bucket, type TestBucket } from './helpers/s3-bucket.ts';
import { userApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * S3 answering 500 InternalError: the API's bucket sits behind a proxy that fails a seeded 30% of requests
 * (some before the bucket sees them, some after it stored the object), then all of them. The SDK's retries
 * carry the flaky phase; the outage surfaces as 503 with Retry-After, and a render whose upload failed is
 * retried by the runner until the bucket is back. Every stored byte is checked against the bucket directly.
 */

const HANG_MS = 30_000;
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('S3 answering 500 on a share of requests, then on all of them', () => {
  let dir: string;
  let s3: TestBucket;
  let proxy: HttpFaultProxy;
  let direct: FileStore;
  let server: TestServer;
  let user: TestUser;
  /** Its outputs are the bytes each render wrote, by job id, to compare with what the bucket holds. */
  const engine = recordingEngine({ content: () => randomBytes(256 * 1024) });
  const rendered = (jobId: number) => {
    const bytes = engine.outputs.get(jobId);
    return bytes === undefined ? undefined : sha(bytes);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-faults-s3-'));
    s3 = await startS3Bucket(dir);
    direct = s3.store();
    proxy = await startHttpFaultProxy(s3.settings.endpoint);
    server = await startTestServer({ env: { ...s3.env(proxy.url), WORKER_CONCURRENCY: '2' } });
    // The retry waits long enough for the test to see it scheduled before it runs.
    await startJobRunner(server, { retryBaseMs: 3000 }, engine);
    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(10), 'test');
  });

  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const { api, getJob } = userApi(() => ({ server, user }), HANG_MS);
  const upload = async (name: string, image: Buffer) =>
    api('/projects/', { method: 'POST', body: projectForm(name, image) });
  const queue = async (projectId: number) => {
    const scripted = await api(`/projects/${projectId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ script: TEST_SCRIPT }),
    });
    expect(scripted.status).toBe(200);
    await selectFirstActor(server.url, user.authHeader, projectId);
    const res = await api(`/jobs/${projectId}/queue`, { method: 'POST' });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const bucketBytes = async (key: string) => {
    const file = await direct.get(key);
    expect(file, `${key} in the bucket`).not.toBeNull();
    return Buffer.concat(await file!.body.toArray());
  };
  const completed = (id: number) =>
    waitFor(async () => {
      const j = await getJob(id);
      return j?.status === 'completed' ? j : null;
    });

  it('30% of requests fail: SDK retries carry uploads and renders, and every byte arrives intact', async () => {
    proxy.mode = { kind: 'flaky', rate: 0.3, seed: 20260601, maxConsecutive: 2 };
    const before = { ...proxy.stats };
    const projects: Array<{ id: number; key: string }> = [];
    for (let i = 0; i < 6; i++) {
      const res = await upload(`Flaky ${i}`, await noisyPng(120 + i, 90));
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: number };
      const project = (await (await api(`/projects/${id}`)).json()) as { file_path: string };
      projects.push({ id, key: project.file_path });
    }
    for (const [i, p] of projects.entries()) {
      const served = await api(`/static/${p.key}`);
      expect(served.status).toBe(200);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(sha(bytes)).toBe(sha(await bucketBytes(p.key)));
      expect((await sharp(bytes).metadata()).width).toBe(120 + i); // a whole image, not a truncated one
    }

    const jobs = [await queue(projects[0]!.id), await queue(projects[1]!.id), await queue(projects[2]!.id)];
    for (const id of jobs) {
      const job = await completed(id);
      const video = await api(`/${job.video_url}`);
      expect(video.status).toBe(200);
      const bytes = Buffer.from(await video.arrayBuffer());
      expect(sha(bytes)).toBe(rendered(id));
      expect(sha(await bucketBytes(job.video_url!.replace(/^static\//, '')))).toBe(rendered(id));
    }
    // The faults were real: the proxy failed a share of the requests, and some of those had reached the bucket.
    expect(proxy.stats.injected - before.injected).toBeGreaterThan(2);
    expect(proxy.stats.injectedAfterBucket - before.injectedAfterBucket).toBeGreaterThan(0);
  });

  it('the bucket down: API calls answer 503 with Retry-After, nothing half-made, and a render retries until it is back', async () => {
    const ok = await upload('Before the outage', await noisyPng(64, 64));
    expect(ok.status).toBe(200);
    const { id: projectId } = (await ok.json()) as { id: number };
    const key = ((await (await api(`/projects/${projectId}`)).json()) as { file_path: string }).file_path;
    const projectsBefore = ((await (await api('/projects/')).json()) as unknown[]).length;
    const balanceBefore = await ledgerBalances(server.ctx.db.kysely, user.id);

    proxy.mode = { kind: 'down' };
    const refused = await upload('During the outage', await noisyPng(64, 64));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/temporarily unavailable/i);
    expect(((await (await api('/projects/')).json()) as unknown[]).length).toBe(projectsBefore);

    const image = await api(`/static/${key}`);
    expect(image.status).toBe(503);
    expect(image.headers.get('retry-after')).toBeTruthy();

    // A render whose upload fails is not lost and not charged twice: the runner schedules a retry.
    const jobId = await queue(projectId);
    const retrying = await waitFor(async () => {
      const j = await getJob(jobId);
      return j && (j.status === 'failed' || (j.status === 'queued' && j.error)) ? j : null;
    });
    expect(retrying.status).toBe('queued');
    expect(retrying.logs.join('\n')).toMatch(/Attempt 1 failed: .*Retrying/);
    expect((await ledgerBalances(server.ctx.db.kysely, user.id)).held).toBe(balanceBefore.held + 100);

    proxy.mode = { kind: 'up' };
    const job = await completed(jobId);
    expect(sha(await bucketBytes(job.video_url!.replace(/^static\//, '')))).toBe(rendered(jobId));
    expect((await api(`/static/${key}`)).status).toBe(200);
    const b = await ledgerBalances(server.ctx.db.kysely, user.id);
    expect(b.held).toBe(balanceBefore.held);
    expect(b.consumed).toBe(balanceBefore.consumed + 100);
    expect(b.granted).toBe(b.available + b.held + b.consumed);
  });
});
