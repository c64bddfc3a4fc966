import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { startS3Bucket, type TestBucket } from './helpers/s3-bucket.ts';

/**
 * /api/static answers byte ranges, so a <video> can seek (and Safari plays it at all): 206 with Content-Range
 * for one satisfiable range, 416 with `bytes *\/size` past the end, the whole file otherwise — on local disk
 * and in an S3 bucket alike.
 */
let dir: string;
let s3: TestBucket;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-ranges-'));
  s3 = await startS3Bucket(dir);
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const cases = TEST_DIALECTS.flatMap((dialect) => (['local disk', 'S3'] as const).map((store) => ({ dialect, store })));

describe.each(cases)('byte ranges from /api/static ($dialect, $store)', ({ dialect, store }) => {
  let server: TestServer;
  const video = randomBytes(10_000);
  const key = `users/1/videos/${randomUUID()}.mp4`;
  const get = (headers: Record<string, string> = {}) => fetch(`${server.url}/api/static/${key}`, { headers });

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: store === 'S3' ? s3.env() : {} });
    await server.ctx.files.put(key, video, 'video/mp4');
  });
  afterAll(() => server?.close());

  it('offers ranges on the whole file', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe('10000');
    expect(Buffer.from(await res.arrayBuffer()).equals(video)).toBe(true);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=9000-', 9000, 9999],
    ['bytes=-500', 9500, 9999],
    ['bytes=9990-20000', 9990, 9999],
  ])('%s → 206 with exactly those bytes', async (range, start, end) => {
    const res = await get({ range });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/10000`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const res = await get({ range: 'bytes=10000-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */10000');
    expect(await res.json()).toEqual({ detail: 'Requested range not satisfiable' });
  });

  it('serves the whole file for a range it does not take (several ranges, another unit)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1']) {
      const res = await get({ range });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(10_000);
    }
  });

  it('a ranged request for a missing file is a plain 404', async () => {
    const res = await fetch(`${server.url}/api/static/users/1/videos/${randomUUID()}.mp4`, {
      headers: { range: 'bytes=0-1' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'Not found' });
  });
});
