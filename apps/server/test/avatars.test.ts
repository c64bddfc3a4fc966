import { createHash } from 'node:crypto';
import { ACTORS, LIMITS, MESSAGES, VALIDATION, sizeClassOf, type Avatar } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarsRepository } from '../src/db/repositories/avatars.ts';
import { avatarFace } from '../src/services/avatars/index.ts';
import { catalogueBounds, seedActorCatalogue } from '../src/services/avatars/catalogue.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { avatarBounds, createProjectOverHttp, registerUser, uniqueEmail, type TestUser } from './helpers/factories.ts';
import { avatarUploadForm, formData, portraitImage, pngImage, storedFiles, svgWithScript } from './helpers/images.ts';

describe.each(TEST_DIALECTS)('avatar library on %s', (dialect) => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  const adminEmail = uniqueEmail('admin');

  const call = (who: TestUser | null, method: string, p: string, body?: unknown) =>
    fetch(`${server.url}${p}`, {
      method,
      headers: {
        ...(who ? who.authHeader : {}),
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  const list = async (who: TestUser, query = '') =>
    (await (await call(who, 'GET', `/api/avatars/${query}`)).json()) as Avatar[];

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { ADMIN_EMAILS: ` someone@else.test , ${adminEmail.toUpperCase()} ` },
    });
    admin = await registerUser(server, { email: adminEmail });
    user = await registerUser(server);
  });
  afterAll(() => server?.close());

  it('seeds the 12 catalogue actors on first start, with portraits the static route serves', async () => {
    const avatars = await list(user);
    const actors = avatars.filter((a) => /^Actor \d+$/.test(a.name ?? ''));
    expect(actors.map((a) => a.name)).toEqual(ACTORS.map((a) => a.name));
    for (const a of actors) {
      expect(a.url).toMatch(/^catalogue\/actor-\d+\.png$/);
      expect(a.size).toBe(sizeClassOf(a.width));
      expect(a.merge_status).toBeNull();
    }
    expect(new Set(actors.map((a) => a.size))).toEqual(new Set(['small', 'medium', 'large']));
    const img = await fetch(`${server.url}/api/static/${actors[0]!.url}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 576, 1024]);
  });

  it('seeding again, even concurrently, adds nothing', async () => {
    const results = await Promise.all([1, 2, 3].map(() => seedActorCatalogue(server.ctx)));
    expect(results.every((r) => r.inserted === 0)).toBe(true);
    expect((await avatarsRepository.catalogueRows(server.ctx.db.kysely)).length).toBe(12);
  });

  it('filters by size class (comma-joined) and rejects unknown sizes', async () => {
    const small = await list(user, '?sizes=small');
    expect(small.length).toBeGreaterThan(0);
    expect(small.every((a) => a.size === 'small' && a.width !== null && a.width < 80)).toBe(true);
    const smallLarge = await list(user, '?sizes=small,large');
    expect(smallLarge.every((a) => a.size !== 'medium')).toBe(true);
    expect(smallLarge.length).toBe(small.length + (await list(user, '?sizes=large')).length);
    const bad = await call(user, 'GET', '/api/avatars/?sizes=huge');
    expect(bad.status).toBe(422);
  });

  it('needs sign-in to read, and admin rights to write (403 for others, before anything else)', async () => {
    expect((await call(null, 'GET', '/api/avatars/')).status).toBe(401);
    expect((await call(null, 'POST', '/api/avatars/upload', formData([]))).status).toBe(401);
    const [first] = await list(user);
    const writes: Array<[string, string, unknown]> = [
      ['PUT', `/api/avatars/${first!.id}/bounds`, avatarBounds(10, 10, 100, 120, 0)],
      ['PUT', '/api/avatars/999999/bounds', avatarBounds(10, 10, 100, 120, 0)],
      ['DELETE', `/api/avatars/${first!.id}`, undefined],
      ['POST', '/api/avatars/upload', formData([{ name: 'files', file: await pngImage(), filename: 'a.png' }])],
    ];
    const before = await storedFiles(server);
    for (const [method, p, body] of writes) {
      const res = await call(user, method, p, body);
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
    expect(await storedFiles(server)).toEqual(before);
    expect((await list(user)).find((a) => a.id === first!.id)).toEqual(first);
  });

  it('lets the admin upload several images; they lead the list for everyone', async () => {
    const fd = formData([
      { name: 'files', file: await portraitImage(), filename: '../../etc/passwd\u0000.png', type: 'image/png' },
      {
        name: 'files',
        file: await portraitImage('dim'),
        filename: 'C:\\Users\\me\\Smiling woman.JPG',
        type: 'image/jpeg',
      },
      // The consent checkbox may arrive after the files.
      { name: 'consent', value: 'true' },
    ]);
    const res = await call(admin, 'POST', '/api/avatars/upload', fd);
    expect(res.status).toBe(200);
    const created = (await res.json()) as Avatar[];
    expect(created).toHaveLength(2);
    expect(created[0]!.url).toMatch(new RegExp(`^users/${admin.id}/avatars/[0-9a-f-]{36}\\.jpg$`));
    expect(created[1]!.url).toMatch(new RegExp(`^users/${admin.id}/avatars/[0-9a-f-]{36}\\.png$`));
    expect(created.map((a) => a.name)).toEqual(['Smiling woman', 'passwd']);
    expect(created[0]).toMatchObject({ prompt: null, x: null, width: null, rotation: 0, size: 'medium' });
    const seen = await list(user);
    expect(seen.slice(0, 2).map((a) => a.id)).toEqual(created.map((a) => a.id));
  });

  it("refuses photos without the uploader's consent and stores nothing; records who consented and when", async () => {
    const before = await storedFiles(server);
    const count = (await list(admin)).length;
    for (const consent of [null, 'false', '']) {
      const parts: Parameters<typeof formData>[0] = [{ name: 'files', file: await portraitImage(), filename: 'a.png' }];
      if (consent !== null) parts.push({ name: 'consent', value: consent });
      const res = await call(admin, 'POST', '/api/avatars/upload', formData(parts));
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: VALIDATION.avatarConsentRequired });
    }
    expect(await storedFiles(server)).toEqual(before);
    expect((await list(admin)).length).toBe(count);

    const ok = await call(
      admin,
      'POST',
      '/api/avatars/upload',
      formData([
        { name: 'consent', value: 'true' },
        { name: 'files', file: await portraitImage(), filename: 'b.png' },
      ]),
    );
    const [created] = (await ok.json()) as Avatar[];
    const row = await server.ctx.db.kysely
      .selectFrom('avatars')
      .select(['consent_by_user_id', 'consent_confirmed_at'])
      .where('id', '=', created!.id)
      .executeTakeFirstOrThrow();
    expect(row.consent_by_user_id).toBe(admin.id);
    expect(row.consent_confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('uploads are all or nothing: one bad file refuses the request and stores nothing', async () => {
    const before = await storedFiles(server);
    const count = (await list(admin)).length;
    const fd = formData([
      { name: 'files', file: await portraitImage(), filename: 'good.png' },
      { name: 'files', file: svgWithScript(), filename: 'bad.png', type: 'image/png' },
    ]);
    const res = await call(admin, 'POST', '/api/avatars/upload', fd);
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: 'Please upload an image file' });
    expect(await storedFiles(server)).toEqual(before);
    expect((await list(admin)).length).toBe(count);
    const none = await call(admin, 'POST', '/api/avatars/upload', formData([{ name: 'other', value: 'x' }]));
    expect(none.status).toBe(422);
  });

  it('keeps the face found at upload with the avatar: 478 points, pose and boxes in the stored photo', async () => {
    const res = await call(admin, 'POST', '/api/avatars/upload', await avatarUploadForm({ filename: 'Astronaut.png' }));
    expect(res.status).toBe(200);
    const [created] = (await res.json()) as Avatar[];
    // The face stays on the server: the list does not carry 478 points.
    expect(created).not.toHaveProperty('face_json');
    const row = await avatarsRepository.findLive(server.ctx.db.kysely, created!.id);
    const face = avatarFace(row);
    expect(face?.points).toHaveLength(478);
    expect(face?.imageSize).toEqual({ width: 800, height: 800 });
    expect(face?.faceBox.height).toBeGreaterThan(200);
    expect(face?.mouthBox.y).toBeGreaterThan(face!.faceBox.y);
  });

  it.each([
    ['no-face', 'no-face'],
    ['too-small', 'too-small'],
    ['many-faces', 'many-faces'],
    ['tilted', 'turned'],
    ['eyes-closed', 'eyes-closed'],
    ['mouth-covered', 'mouth-covered'],
  ] as const)('refuses a %s photo with 422 and the reason, storing nothing', async (kind, reason) => {
    const before = await storedFiles(server);
    const count = (await list(admin)).length;
    const res = await call(
      admin,
      'POST',
      '/api/avatars/upload',
      await avatarUploadForm({ filename: 'fine.png' }, { filename: `${kind}.png`, kind }),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail: `${kind}: ${MESSAGES.avatars.face[reason]}` });
    expect(await storedFiles(server)).toEqual(before);
    expect((await list(admin)).length).toBe(count);
  });

  it('with a character description, lists the catalogue best match first, then the uploads', async () => {
    const described = encodeURIComponent('  young woman in her 20s with long brown hair ');
    const res = await call(user, 'GET', `/api/avatars/?description=${described}`);
    expect(res.status).toBe(200);
    const ranked = (await res.json()) as Avatar[];
    const plain = await list(user);
    // Same avatars, other order: nothing added or lost.
    expect(ranked.map((a) => a.id).sort((a, b) => a - b)).toEqual(plain.map((a) => a.id).sort((a, b) => a - b));
    const byName = new Map(ACTORS.map((a) => [a.name, a]));
    const catalogue = ranked.filter((a) => byName.has(a.name ?? ''));
    // The catalogue leads (uploads show nothing we can match), women before men.
    expect(ranked.slice(0, catalogue.length)).toEqual(catalogue);
    const genders = catalogue.map((a) => byName.get(a.name!)!.gender);
    expect(genders[0]).toBe('female');
    expect(genders.lastIndexOf('female')).toBeLessThan(genders.indexOf('male'));
    // A man with a beard puts a man first.
    const men = await list(user, `?description=${encodeURIComponent('a man in his 40s with a beard')}`);
    expect(byName.get(men[0]!.name!)!.gender).toBe('male');
  });

  it('refuses a blank or over-long description (422), and a description with a project that is not yours (404)', async () => {
    for (const d of ['', '%20%20%20', 'x'.repeat(LIMITS.characterDescriptionMax + 1)]) {
      const res = await call(user, 'GET', `/api/avatars/?description=${d}`);
      expect(res.status, `description of ${d.length}`).toBe(422);
    }
    const atLimit = await call(user, 'GET', `/api/avatars/?description=${'x'.repeat(LIMITS.characterDescriptionMax)}`);
    expect(atLimit.status).toBe(200);
    expect((await call(null, 'GET', '/api/avatars/?description=woman')).status).toBe(401);
    const projectId = await createProjectOverHttp(server, admin, 'Described cast');
    const q = `?project_id=${projectId}&description=woman`;
    expect((await call(user, 'GET', `/api/avatars/${q}`)).status).toBe(404);
    const own = await call(admin, 'GET', `/api/avatars/${q}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as Avatar[]).every((a) => a.merge_status !== null)).toBe(true);
  });

  it('saves bounds (rounded box + rotated corners) and recomputes the size class', async () => {
    const [target] = await list(user, '?sizes=small');
    const res = await call(admin, 'PUT', `/api/avatars/${target!.id}/bounds`, avatarBounds(200, 600, 170, 210, 12));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: target!.id,
      x: 200,
      y: 600,
      width: 170,
      height: 210,
      rotation: 12,
      size: 'large',
    });
    expect((await list(user)).find((a) => a.id === target!.id)?.size).toBe('large');

    const bad: unknown[] = [
      { ...avatarBounds(200, 600, 170, 210, 12), x2: 900 },
      { ...avatarBounds(200, 600, 170, 210, 12), width: 170.5 },
      { ...avatarBounds(200, 600, 170, 210, 12), y3: 1e9 },
      { x: 1, y: 1 },
    ];
    for (const body of bad)
      expect((await call(admin, 'PUT', `/api/avatars/${target!.id}/bounds`, body)).status).toBe(422);
    expect((await call(admin, 'PUT', '/api/avatars/999999/bounds', avatarBounds(1, 1, 60, 60, 0))).status).toBe(404);
  });

  it('deletes uploads with their file, and tombstones catalogue actors so seeding does not bring them back', async () => {
    const [upload] = (await list(admin)).filter((a) => a.url.startsWith('users/'));
    expect(await server.ctx.files.exists(upload!.url)).toBe(true);
    expect((await call(admin, 'DELETE', `/api/avatars/${upload!.id}`)).status).toBe(204);
    expect(await server.ctx.files.exists(upload!.url)).toBe(false);
    expect((await list(user)).some((a) => a.id === upload!.id)).toBe(false);
    expect((await call(admin, 'DELETE', `/api/avatars/${upload!.id}`)).status).toBe(404);

    const actor = (await list(admin)).find((a) => a.name === 'Actor 12')!;
    expect((await call(admin, 'DELETE', `/api/avatars/${actor.id}`)).status).toBe(204);
    expect((await list(user)).some((a) => a.id === actor.id)).toBe(false);
    await seedActorCatalogue(server.ctx);
    expect((await list(user)).some((a) => a.name === 'Actor 12')).toBe(false);
  });

  it('gives the catalogue default bounds whose corners pass the bounds check', () => {
    for (const actor of ACTORS) {
      const b = catalogueBounds(actor);
      const c = b.corners;
      expect(Math.hypot(c[2]! - c[0]!, c[3]! - c[1]!)).toBeCloseTo(b.width, 0);
      expect(Math.hypot(c[4]! - c[2]!, c[5]! - c[3]!)).toBeCloseTo(b.height, 0);
    }
  });

  it('renders every catalogue actor as a distinct real portrait', async () => {
    const actors = (await list(user)).filter((a) => /^Actor \d+$/.test(a.name ?? ''));
    const digests = new Set<string>();
    for (const a of actors) {
      const png = Buffer.from(await (await fetch(`${server.url}/api/static/${a.url}`)).arrayBuffer());
      const stats = await sharp(png).stats();
      // A real illustration, not a flat fill: several distinct colours across the frame.
      expect(stats.channels.some((c) => c.stdev > 20)).toBe(true);
      digests.add(createHash('sha256').update(png).digest('hex'));
    }
    expect(digests.size).toBe(actors.length);
  });
});
