import { randomBytes } from 'node:crypto';
import { LIMITS, type Project } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { serverForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { formData, oversizeFile, pngImage, storedFiles } from './helpers/images.ts';
import { rawRequest } from './helpers/raw-http.ts';

/**
 * Every upload route answers every way of going over its limits with 413 {detail}: one file over 10 MB, more
 * files than the route takes, a request body over LIMITS.uploadMaxTotalBytes (declared or actually sent). Uploads
 * share one per-user budget (429 after UPLOAD_RATE_LIMIT a minute), and images are decoded under a pixel cap and
 * stored no larger than LIMITS.uploadStoredMaxSide, so the CPU one upload costs is bounded.
 */
interface UploadRoute {
  path: string;
  fileField: string;
  /** Text fields the route expects (their values do not matter: the limits are checked while reading). */
  fields: Record<string, string>;
  maxFiles: number;
  admin?: boolean;
}

const ROUTES: UploadRoute[] = [
  { path: '/api/projects/', fileField: 'file', fields: { name: 'Limits' }, maxFiles: 1 },
  { path: '/api/hooks/upload-product', fileField: 'product_image', fields: { hook_pack_id: '1' }, maxFiles: 1 },
  {
    path: '/api/hooks/generate-preview',
    fileField: 'mask_image',
    fields: { hook_pack_id: '1', generated_character_id: '1' },
    maxFiles: 1,
  },
  {
    path: '/api/merge/single',
    fileField: 'mask_file',
    fields: { project_id: '1', character_id: '1' },
    maxFiles: 1,
  },
  {
    path: '/api/avatars/upload',
    fileField: 'files',
    fields: { consent: 'true' },
    maxFiles: LIMITS.avatarUploadMaxFiles,
    admin: true,
  },
];

const MB = 1024 * 1024;

describe.each(TEST_DIALECTS)('upload limits (%s)', (dialect) => {
  const t = serverForBlock(dialect, { withAdmin: true });

  const post = (route: UploadRoute, files: Buffer[]) =>
    fetch(`${t.server.url}${route.path}`, {
      method: 'POST',
      headers: (route.admin ? t.admin : t.user).authHeader,
      body: formData([
        ...Object.entries(route.fields).map(([name, value]) => ({ name, value })),
        ...files.map((file, i) => ({ name: route.fileField, file, filename: `f${i}.png`, type: 'image/png' })),
      ]),
    });

  it.each(ROUTES.map((r) => [r.path, r] as const))('%s: a file over 10 MB is 413', async (_path, route) => {
    const before = await storedFiles(t.server);
    const res = await post(route, [oversizeFile()]);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'File is too large (max 10MB)' });
    expect(await storedFiles(t.server)).toEqual(before);
  });

  it.each(ROUTES.map((r) => [r.path, r] as const))('%s: one file too many is 413', async (_path, route) => {
    const before = await storedFiles(t.server);
    const png = await pngImage();
    const res = await post(route, Array<Buffer>(route.maxFiles + 1).fill(png));
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 413,
      body: { detail: 'Too many files in one upload' },
    });
    expect(await storedFiles(t.server)).toEqual(before);
  });

  it.each(ROUTES.map((r) => [r.path, r] as const))(
    '%s: a body declared over the total limit is 413 before it is read',
    async (_path, route) => {
      const boundary = 'limitsboundary';
      const res = await rawRequest(t.server.url, {
        method: 'POST',
        target: route.path,
        headers: [
          ['authorization', (route.admin ? t.admin : t.user).authHeader.authorization],
          ['content-type', `multipart/form-data; boundary=${boundary}`],
          ['content-length', String(LIMITS.uploadMaxTotalBytes + MB)],
        ],
        // Only the start of the promised body: the answer must not wait for the rest.
        body: `--${boundary}\r\ncontent-disposition: form-data; name="x"\r\n\r\n1\r\n`,
        autoLength: false,
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body.toString())).toEqual({ detail: 'Upload is too large (max 60MB in one request)' });
    },
  );

  it('too many form fields is 413 too', async () => {
    const res = await fetch(`${t.server.url}/api/projects/`, {
      method: 'POST',
      headers: t.user.authHeader,
      body: formData(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: 'x' }))),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'Too many form fields' });
  });

  it('a batch whose files are each allowed but add up to over the total limit is 413, and nothing is kept', async () => {
    // Several valid images of ~9.5 MB each, sent without a length (chunked): the sum is counted as it arrives.
    const big = await noisyJpeg(1840);
    expect(big.length).toBeGreaterThan(9 * MB);
    expect(big.length).toBeLessThan(LIMITS.uploadMaxBytes);
    const count = Math.ceil(LIMITS.uploadMaxTotalBytes / big.length) + 1;
    const before = await storedFiles(t.server);
    const avatarsBefore = await (await fetch(`${t.server.url}/api/avatars/`, { headers: t.user.authHeader })).json();
    const res = await post(ROUTES[4]!, Array<Buffer>(count).fill(big));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'Upload is too large (max 60MB in one request)' });
    expect(await storedFiles(t.server)).toEqual(before);
    expect(await (await fetch(`${t.server.url}/api/avatars/`, { headers: t.user.authHeader })).json()).toEqual(
      avatarsBefore,
    );
  });

  it('stores a large photo no bigger than the stored cap, and refuses one over the pixel cap', async () => {
    const photo = await sharp({
      create: { width: 4000, height: 3000, channels: 3, background: '#c84' },
    })
      .jpeg()
      .toBuffer();
    const res = await post(ROUTES[0]!, [photo]);
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: number };
    const project = (await (
      await fetch(`${t.server.url}/api/projects/${id}`, { headers: t.user.authHeader })
    ).json()) as Project;
    const stored = Buffer.from(await (await fetch(`${t.server.url}/api/static/${project.file_path}`)).arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height]).toEqual([LIMITS.uploadStoredMaxSide, (LIMITS.uploadStoredMaxSide * 3) / 4]);

    // Just over the cap (5001 x 5000), in well under a megabyte.
    const tooMany = await sharp({ create: { width: 5001, height: 5000, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(5001 * 5000).toBeGreaterThan(LIMITS.uploadMaxPixels);
    const refused = await post(ROUTES[0]!, [tooMany]);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ detail: 'Image dimensions are too large' });
  });
});

describe('upload rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { UPLOAD_RATE_LIMIT: '3' } });
  });
  afterAll(() => server?.close());

  it('gives each user one budget across every upload route, then 429 with Retry-After', async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    const png = await pngImage();
    const upload = (who: TestUser, path: string, fields: Record<string, string>, field: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: who.authHeader,
        body: formData([
          ...Object.entries(fields).map(([name, value]) => ({ name, value })),
          { name: field, file: png, filename: 'p.png', type: 'image/png' },
        ]),
      });
    const project = () => upload(a, '/api/projects/', { name: 'Budget' }, 'file');
    expect((await project()).status).toBe(200);
    expect((await project()).status).toBe(200);
    // Another route draws on the same budget (its own answer does not matter here: the pack does not exist).
    expect((await upload(a, '/api/hooks/upload-product', { hook_pack_id: '999' }, 'product_image')).status).not.toBe(
      429,
    );
    const limited = await project();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ detail: 'Too many uploads. Please wait a minute and try again.' });
    // Someone else is not held back by it, and reading is not an upload.
    expect((await upload(b, '/api/projects/', { name: 'Other' }, 'file')).status).toBe(200);
    expect((await fetch(`${server.url}/api/projects/`, { headers: a.authHeader })).status).toBe(200);
  });
});

/** Random pixels at full JPEG quality: about 3 bytes a pixel, so a large file that still decodes quickly. */
function noisyJpeg(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer();
}
