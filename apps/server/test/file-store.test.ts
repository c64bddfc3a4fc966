import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../src/storage/file-store.ts';
import { createLocalFileStore } from '../src/storage/local-file-store.ts';
import { startTestServer } from './helpers/app.ts';
import { registerUser } from './helpers/factories.ts';
import { formData, pngImage } from './helpers/images.ts';
import { startS3Bucket, type TestBucket } from './helpers/s3-bucket.ts';

let dir: string;
let s3: TestBucket;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-store-'));
  s3 = await startS3Bucket(dir);
});
afterAll(async () => {
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

const stores: Array<[string, () => FileStore]> = [
  ['local disk', () => createLocalFileStore(path.join(dir, 'local'))],
  ['S3 (s3rver)', () => s3.store()],
];

describe.each(stores)('file store on %s', (_name, make) => {
  it('stores, reads, copies out, lists by prefix and deletes', async () => {
    const store = make();
    await store.put('users/1/a/one.png', Buffer.from('first'), 'image/png');
    await store.put('users/1/a/two.txt', Readable.from([Buffer.from('streamed')]), 'text/plain');
    const src = path.join(dir, 'src.mp4');
    await writeFile(src, 'movie');
    await store.putFile('users/1/b/video.mp4', src, 'video/mp4');
    await store.put('users/2/keep.png', Buffer.from('other user'), 'image/png');

    const got = await store.get('users/1/a/one.png');
    expect(got?.size).toBe(5);
    expect(got?.contentType).toBe('image/png');
    expect(Buffer.concat(await got!.body.toArray()).toString()).toBe('first');
    expect(await store.exists('users/1/a/two.txt')).toBe(true);
    expect(await store.get('users/1/missing.png')).toBeNull();

    const out = path.join(dir, `out-${_name}`, 'video.mp4');
    await store.toLocalFile('users/1/b/video.mp4', out);
    expect(await readFile(out, 'utf8')).toBe('movie');

    await store.delete('users/1/a/one.png');
    expect(await store.exists('users/1/a/one.png')).toBe(false);
    await store.deletePrefix('users/1');
    expect(await store.exists('users/1/a/two.txt')).toBe(false);
    expect(await store.exists('users/1/b/video.mp4')).toBe(false);
    expect(await store.exists('users/2/keep.png')).toBe(true);
  });

  it('refuses keys it did not generate', async () => {
    const store = make();
    for (const key of ['../etc/passwd', 'users/1/../../x', '/abs', 'users//x', '']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe storage key/);
    }
  });
});

describe('the API on an S3 bucket', () => {
  it('stores an uploaded product image in the bucket and serves it back', async () => {
    const server = await startTestServer({ env: s3.env() });
    try {
      const user = await registerUser(server);
      const res = await fetch(`${server.url}/api/projects/`, {
        method: 'POST',
        headers: user.authHeader,
        body: formData([
          { name: 'name', value: 'Bucket project' },
          { name: 'file', file: await pngImage(), filename: 'p.png', type: 'image/png' },
        ]),
      });
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: number };
      const project = (await (
        await fetch(`${server.url}/api/projects/${id}`, { headers: user.authHeader })
      ).json()) as { file_path: string };
      expect(await server.ctx.files.exists(project.file_path)).toBe(true);
      expect(await createLocalFileStore(server.ctx.config.filesDir).exists(project.file_path)).toBe(false);
      const img = await fetch(`${server.url}/api/static/${project.file_path}`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/png');
    } finally {
      await server.close();
    }
  });
});
