import type { Avatar, Project } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { formData, pngImage, storedFiles, svgWithScript } from './helpers/images.ts';

describe.each(TEST_DIALECTS)('projects API on %s', (dialect) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const call = (user: TestUser | null, method: string, p: string, body?: unknown) =>
    fetch(`${server.url}${p}`, {
      method,
      headers: {
        ...(user ? user.authHeader : {}),
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  const create = async (user: TestUser, name: string, file?: Buffer) => {
    const parts: Parameters<typeof formData>[0] = [{ name: 'name', value: name }];
    if (file) parts.push({ name: 'file', file, filename: 'product.png', type: 'image/png' });
    return call(user, 'POST', '/api/projects/', formData(parts));
  };

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    alice = await registerUser(server);
    bob = await registerUser(server);
  });
  afterAll(() => server?.close());

  it('needs sign-in for every call', async () => {
    for (const [method, p] of [
      ['GET', '/api/projects/'],
      ['GET', '/api/projects/1'],
      ['POST', '/api/projects/'],
      ['PUT', '/api/projects/1'],
      ['DELETE', '/api/projects/1'],
      ['POST', '/api/projects/1/selected-characters'],
    ] as const) {
      const res = await call(null, method, p, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${p}`).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('creates a project from a name and returns its id; it reads back with defaults', async () => {
    const res = await create(alice, '  Summer launch  ');
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: number };
    expect(id).toBeGreaterThan(0);
    const got = await call(alice, 'GET', `/api/projects/${id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      id,
      name: 'Summer launch',
      file_path: null,
      script: '',
      language: 'english',
      accent: 'american',
      characters: [],
    });
  });

  it('stores the optional product image under a generated key and serves it from /api/static', async () => {
    const res = await create(alice, 'With image', await pngImage(80, 60));
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: number };
    const project = (await (await call(alice, 'GET', `/api/projects/${id}`)).json()) as Project;
    expect(project.file_path).toMatch(new RegExp(`^users/${alice.id}/projects/[0-9a-f-]{36}\\.png$`));
    const img = await fetch(`${server.url}/api/static/${project.file_path}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 80, 60]);
  });

  it('validates the name with the documented messages', async () => {
    const cases: Array<[string | null, string]> = [
      ['ab', 'Name must be at least 3 characters'],
      ['   ab   ', 'Name must be at least 3 characters'],
      ['x'.repeat(101), 'Name must be less than 100 characters'],
      [null, 'Name must be at least 3 characters'],
    ];
    for (const [name, detail] of cases) {
      const res = name === null ? await call(alice, 'POST', '/api/projects/', formData([])) : await create(alice, name);
      expect(res.status, String(name)).toBe(422);
      expect(await res.json()).toEqual({ detail });
    }
    expect((await create(alice, 'x'.repeat(100))).status).toBe(200);
    const json = await call(alice, 'POST', '/api/projects/', { name: 'Not multipart' });
    expect(json.status).toBe(415);
    expect(await json.json()).toEqual({ detail: expect.any(String) });
  });

  it('refuses a non-image file and then creates nothing and stores nothing', async () => {
    const before = await storedFiles(server);
    const countBefore = ((await (await call(alice, 'GET', '/api/projects/')).json()) as Project[]).length;
    const res = await create(alice, 'Hostile', svgWithScript());
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: 'Please upload an image file' });
    expect(await storedFiles(server)).toEqual(before);
    expect(((await (await call(alice, 'GET', '/api/projects/')).json()) as Project[]).length).toBe(countBefore);
  });

  it('lists only the caller’s projects, newest first', async () => {
    const a = ((await (await create(alice, 'Older one')).json()) as { id: number }).id;
    const b = ((await (await create(alice, 'Newer one')).json()) as { id: number }).id;
    await create(bob, 'Bob’s project');
    const list = (await (await call(alice, 'GET', '/api/projects/')).json()) as Project[];
    expect(list.findIndex((p) => p.id === b)).toBeLessThan(list.findIndex((p) => p.id === a));
    expect(list.every((p) => p.name !== 'Bob’s project')).toBe(true);
    const sorted = [...list].sort((x, y) => y.created_at.localeCompare(x.created_at) || y.id - x.id);
    expect(list.map((p) => p.id)).toEqual(sorted.map((p) => p.id));
    // Without the trailing slash too.
    expect((await call(alice, 'GET', '/api/projects')).status).toBe(200);
  });

  it('updates partially and returns the project; validates script, language, accent and unknown fields', async () => {
    const { id } = (await (await create(alice, 'Editable')).json()) as { id: number };
    const res = await call(alice, 'PUT', `/api/projects/${id}`, { script: 'Buy it now', language: 'spanish' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      name: 'Editable',
      script: 'Buy it now',
      language: 'spanish',
      accent: 'american',
    });
    const renamed = (await (
      await call(alice, 'PUT', `/api/projects/${id}`, { name: ' Renamed ', accent: 'british' })
    ).json()) as Project;
    expect(renamed).toMatchObject({ name: 'Renamed', accent: 'british', script: 'Buy it now' });
    expect((await call(alice, 'PUT', `/api/projects/${id}`, { script: 'x'.repeat(2000) })).status).toBe(200);

    const bad: Array<[unknown, string | null]> = [
      [{ script: 'x'.repeat(2001) }, 'Script must be at most 2000 characters'],
      [{ name: 'ab' }, 'Name must be at least 3 characters'],
      [{ language: 'klingon' }, null],
      [{ accent: 'pirate' }, null],
      [{ owner: 2 }, null],
    ];
    for (const [body, detail] of bad) {
      const r = await call(alice, 'PUT', `/api/projects/${id}`, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      const j = (await r.json()) as { detail: string };
      expect(typeof j.detail).toBe('string');
      if (detail) expect(j.detail).toBe(detail);
    }
  });

  it('hides other users’ projects as 404 on every call', async () => {
    const { id } = (await (await create(alice, 'Private one')).json()) as { id: number };
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { script: 'hijack' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(bob, method, `/api/projects/${id}`, body);
      expect(res.status, method).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Project not found' });
    }
    const sel = await call(bob, 'POST', `/api/projects/${id}/selected-characters`, { character_ids: [] });
    expect(sel.status).toBe(404);
    const avatars = await call(bob, 'GET', `/api/avatars/?project_id=${id}`);
    expect(avatars.status).toBe(404);
    expect((await call(alice, 'GET', `/api/projects/${id}`)).status).toBe(200);
    expect((await call(alice, 'GET', '/api/projects/999999')).status).toBe(404);
    expect((await call(alice, 'GET', '/api/projects/abc')).status).toBe(404); // a malformed id names nothing
  });

  it('stores the selected characters, with placement from the avatar bounds and merge state', async () => {
    const { id } = (await (await create(alice, 'Casting')).json()) as { id: number };
    const catalogue = (await (await call(alice, 'GET', '/api/avatars/')).json()) as Avatar[];
    const [a1, a2, a3] = catalogue;
    expect(a1 && a2 && a3).toBeTruthy();

    let res = await call(alice, 'POST', `/api/projects/${id}/selected-characters`, {
      character_ids: [a1!.id, a2!.id, a2!.id],
    });
    expect(res.status).toBe(200);
    let project = (await res.json()) as Project;
    expect(project.characters.map((c) => c.id)).toEqual([a1!.id, a2!.id]);
    expect(project.characters[0]).toMatchObject({
      url: a1!.url,
      display_url: a1!.url,
      selected: true,
      x: a1!.x,
      y: a1!.y,
      width: a1!.width,
      height: a1!.height,
      rotation: a1!.rotation,
      is_merged: false,
      merged_character: null,
    });

    // A merge result (written by the merge job) shows in the project and in the avatar list for the project.
    await projectsRepository.setMergeState(server.ctx.db.kysely, id, a2!.id, {
      status: 'merged',
      mergedKey: `users/${alice.id}/merged/x.png`,
      jobId: null,
    });
    res = await call(alice, 'POST', `/api/projects/${id}/selected-characters`, { character_ids: [a3!.id] });
    project = (await res.json()) as Project;
    const byId = new Map(project.characters.map((c) => [c.id, c]));
    expect(byId.has(a1!.id)).toBe(false);
    expect(byId.get(a3!.id)?.selected).toBe(true);
    expect(byId.get(a2!.id)).toMatchObject({
      selected: false,
      is_merged: true,
      merged_character: { url: `users/${alice.id}/merged/x.png` },
      display_url: `users/${alice.id}/merged/x.png`,
    });

    const withStatus = (await (await call(alice, 'GET', `/api/avatars/?project_id=${id}`)).json()) as Avatar[];
    expect(withStatus.find((a) => a.id === a2!.id)).toMatchObject({
      merge_status: 'merged',
      merged_url: `users/${alice.id}/merged/x.png`,
    });
    expect(withStatus.find((a) => a.id === a3!.id)).toMatchObject({ merge_status: 'not_merged', merged_url: null });

    const unknown = await call(alice, 'POST', `/api/projects/${id}/selected-characters`, { character_ids: [987654] });
    expect(unknown.status).toBe(404);
    const invalid = await call(alice, 'POST', `/api/projects/${id}/selected-characters`, { character_ids: 'all' });
    expect(invalid.status).toBe(422);
  });

  it('deletes a project with its files; afterwards it is gone', async () => {
    const { id } = (await (await create(alice, 'To delete', await pngImage())).json()) as { id: number };
    const project = (await (await call(alice, 'GET', `/api/projects/${id}`)).json()) as Project;
    expect(await server.ctx.files.exists(project.file_path!)).toBe(true);
    const res = await call(alice, 'DELETE', `/api/projects/${id}`);
    expect(res.status).toBe(204);
    expect(await server.ctx.files.exists(project.file_path!)).toBe(false);
    expect((await call(alice, 'GET', `/api/projects/${id}`)).status).toBe(404);
    expect((await call(alice, 'DELETE', `/api/projects/${id}`)).status).toBe(404);
  });
});
