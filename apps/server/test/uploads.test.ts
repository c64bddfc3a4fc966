import type { Project } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeImage, sniffImageType } from '../src/uploads/images.ts';
import { cleanDisplayName, storeUploadedImage } from '../src/uploads/index.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import {
  compressiblePngBomb,
  formData,
  gifImage,
  htmlPage,
  jpegImage,
  jpegWithExifGpsAndOrientation,
  oversizeFile,
  pngHeaderBomb,
  pngImage,
  storedFiles,
  svgWithScript,
  textPretendingToBePng,
  truncatedPng,
  webpImage,
} from './helpers/images.ts';

describe('upload hardening', () => {
  let server: TestServer;
  let user: TestUser;

  const upload = (file: Buffer, filename = 'product.png', type = 'image/png') =>
    fetch(`${server.url}/api/projects/`, {
      method: 'POST',
      headers: user.authHeader,
      body: formData([
        { name: 'name', value: 'Upload test' },
        { name: 'file', file, filename, type },
      ]),
    });
  const stored = async (res: Response) => {
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: number };
    const project = (await (
      await fetch(`${server.url}/api/projects/${id}`, { headers: user.authHeader })
    ).json()) as Project;
    const img = await fetch(`${server.url}/api/static/${project.file_path}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    return {
      key: project.file_path!,
      bytes: Buffer.from(await img.arrayBuffer()),
      contentType: img.headers.get('content-type'),
    };
  };

  beforeAll(async () => {
    server = await startTestServer();
    user = await registerUser(server);
  });
  afterAll(() => server?.close());

  it('sniffs the type from magic bytes only', async () => {
    expect(sniffImageType(await pngImage())).toBe('png');
    expect(sniffImageType(await jpegImage())).toBe('jpeg');
    expect(sniffImageType(await webpImage())).toBe('webp');
    expect(sniffImageType(await gifImage())).toBeNull();
    expect(sniffImageType(svgWithScript())).toBeNull();
    expect(sniffImageType(Buffer.from([0x89, 0x50]))).toBeNull();
  });

  it.each([
    ['png', pngImage, 'image/png', /\.png$/],
    ['jpeg', jpegImage, 'image/jpeg', /\.jpg$/],
    ['webp', webpImage, 'image/webp', /\.webp$/],
  ] as const)('accepts a valid %s and keeps its format', async (_name, make, mime, ext) => {
    // The client's name and MIME type are ignored: the key's extension follows the bytes.
    const { key, bytes, contentType } = await stored(await upload(await make(64, 48), 'photo.gif', 'image/svg+xml'));
    expect(key).toMatch(new RegExp(`^users/${user.id}/projects/[0-9a-f-]{36}`));
    expect(key).toMatch(ext);
    expect(contentType).toBe(mime);
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([64, 48]);
  });

  it('keeps PNG transparency', async () => {
    const { bytes } = await stored(await upload(await pngImage(32, 32, true)));
    const meta = await sharp(bytes).metadata();
    expect(meta.hasAlpha).toBe(true);
  });

  it('applies EXIF orientation, then strips EXIF (GPS, camera, artist) from what it stores', async () => {
    const input = await jpegWithExifGpsAndOrientation();
    const inMeta = await sharp(input).metadata();
    expect([inMeta.width, inMeta.height, inMeta.orientation]).toEqual([40, 20, 6]);
    expect(inMeta.exif).toBeDefined();
    expect(input.includes('secret person')).toBe(true);

    const { bytes } = await stored(await upload(input, 'holiday.jpg', 'image/jpeg'));
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 20, 40]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(bytes.includes('secret person')).toBe(false);
    expect(bytes.includes('SpyCam')).toBe(false);
    // Left half was red; rotated 90° clockwise the red half is now on top.
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    expect(px(10, 4)[0]).toBeGreaterThan(200);
    expect(px(10, 35)[2]).toBeGreaterThan(200);
  });

  it('stores under a generated key whatever the file name says (../, NUL, backslashes)', async () => {
    for (const name of ['../../../etc/passwd.png', 'evil\u0000.png', '..\\..\\boot.ini', '/absolute/x.png']) {
      const { key } = await stored(await upload(await pngImage(), name));
      expect(key).toMatch(new RegExp(`^users/${user.id}/projects/[0-9a-f-]{36}\\.png$`));
    }
    expect(cleanDisplayName('../../etc/passwd\u0000.png')).toBe('passwd');
    expect(cleanDisplayName('..\\x\\..')).toBeNull();
    expect(cleanDisplayName('\u202egnp.exe')).toBe('gnp');
  });

  const hostile: Array<[string, () => Buffer | Promise<Buffer>, number, string]> = [
    ['text named .png', textPretendingToBePng, 415, 'Please upload an image file'],
    ['SVG with <script>', svgWithScript, 415, 'Please upload an image file'],
    ['HTML page', htmlPage, 415, 'Please upload an image file'],
    ['GIF', gifImage, 415, 'Please upload an image file'],
    ['truncated PNG', truncatedPng, 422, 'Please upload an image file'],
    ['empty file', () => Buffer.alloc(0), 422, 'Please upload an image file'],
    ['PNG header claiming 100000x100000', () => pngHeaderBomb(), 422, 'Image dimensions are too large'],
    ['compressible 41 MP PNG', compressiblePngBomb, 422, 'Image dimensions are too large'],
    ['file over 10 MB', () => oversizeFile(), 413, 'File is too large (max 10MB)'],
  ];

  it.each(hostile)(
    'refuses %s with a clear 4xx, stores nothing and creates nothing',
    async (_name, make, status, detail) => {
      const before = await storedFiles(server);
      const projectsBefore = (await (
        await fetch(`${server.url}/api/projects/`, { headers: user.authHeader })
      ).json()) as Project[];
      const res = await upload(await make());
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ detail });
      expect(await storedFiles(server)).toEqual(before);
      const projectsAfter = (await (
        await fetch(`${server.url}/api/projects/`, { headers: user.authHeader })
      ).json()) as Project[];
      expect(projectsAfter.length).toBe(projectsBefore.length);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    },
  );

  it('refuses the same corpus in the service layer and leaves no temp files', async () => {
    const before = await storedFiles(server);
    for (const [, make, status] of hostile) {
      await expect(
        storeUploadedImage(server.ctx, { userId: user.id, area: 'hook-packs', buffer: await make() }),
      ).rejects.toMatchObject({
        statusCode: status,
      });
    }
    expect(await storedFiles(server)).toEqual(before);
    await expect(sanitizeImage(await pngImage())).resolves.toMatchObject({ type: 'png', width: 64, height: 48 });
  });

  it('refuses a second file (413, a limit) and an unexpected file field (422)', async () => {
    const res = await fetch(`${server.url}/api/projects/`, {
      method: 'POST',
      headers: user.authHeader,
      body: formData([
        { name: 'name', value: 'Two files' },
        { name: 'file', file: await pngImage(), filename: 'a.png' },
        { name: 'file', file: await pngImage(), filename: 'b.png' },
      ]),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'Too many files in one upload' });
    const other = await fetch(`${server.url}/api/projects/`, {
      method: 'POST',
      headers: user.authHeader,
      body: formData([
        { name: 'name', value: 'Other field' },
        { name: 'avatar', file: await pngImage(), filename: 'a.png' },
      ]),
    });
    expect(other.status).toBe(422);
  });

  it('the static route refuses traversal and unknown keys', async () => {
    for (const p of [
      '/api/static/../../etc/passwd',
      '/api/static/users/..%2F..%2Fhookreel.db',
      '/api/static/users/1/projects/nope.png',
    ]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(404);
    }
  });
});
