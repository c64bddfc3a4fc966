import { Creator, creatorActorId, type Avatar, type Batch } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, insertUser, type InsertedUser } from './helpers/factories.ts';
import { formData, pngImage, portraitImage, storedFiles, textPretendingToBePng } from './helpers/images.ts';
import { recordingEngine, startServerRecordingRenders } from './helpers/recording-engine.ts';
import { requestApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Own creators (decision 202): a signed-in user adds private actors from photos of people who agreed; the consent
 * is kept with the actor; an unusable photo is refused with the face check's reason; only the owner sees and uses
 * them (404 for anyone else on every route and when naming the id elsewhere); deleting removes the files; a
 * render of one says a real photo was animated and carries the AI label by default (decision 201).
 */
describe.each(TEST_DIALECTS)('own creators (%s)', (dialect) => {
  let server: TestServer;
  const previews = new Map<string, { script: string; realPerson: boolean | undefined }>();
  const engine = recordingEngine({
    content: (input) => {
      // The creators' card previews (decision 207) are project-less renders (id 0) of the creator's photo.
      if (input.project.id === 0)
        previews.set(input.project.name, { script: input.project.script, realPerson: input.actor?.realPerson });
      return `video of job ${input.jobId}`;
    },
  });
  beforeAll(async () => {
    server = await startServerRecordingRenders(dialect, engine);
  }, 60_000);
  afterAll(() => server?.close());

  const call = async (as: InsertedUser, method: string, path: string, body?: unknown) => {
    const res = await requestApi(server, as.headers, method, path, body);
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
  };
  const creatorForm = async (
    over: { photo?: Buffer | null; name?: string | null; consent?: string | null; type?: string } = {},
  ) => {
    const parts: Parameters<typeof formData>[0] = [];
    if (over.name !== null) parts.push({ name: 'name', value: over.name ?? 'Maya' });
    if (over.consent !== null) parts.push({ name: 'consent', value: over.consent ?? 'true' });
    if (over.photo !== null)
      parts.push({
        name: 'photo',
        file: over.photo ?? (await portraitImage()),
        filename: 'maya.png',
        type: over.type ?? 'image/png',
      });
    return formData(parts);
  };
  const addCreator = async (u: InsertedUser, name = 'Maya') => {
    const res = await call(u, 'POST', '/creators', await creatorForm({ name }));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return Creator.parse(res.json);
  };

  it('adds a private creator from a consented photo and keeps the consent with it', async () => {
    const u = await insertUser(server);
    const before = Date.now();
    const c = await addCreator(u, '  Maya Lopez ');
    expect(c).toMatchObject({ name: 'Maya Lopez', kind: 'photo', own: true, catalogue: false });
    expect(c.consent.text).toMatch(/^Maya Lopez agreed that their photo and likeness may be animated by AI/);
    expect(c.consent.confirmed_by).toBe(u.email);
    expect(Date.parse(c.consent.confirmed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(c.url).toMatch(new RegExp(`^users/${u.id}/creators/`));
    // Beside the catalogue in the actor list, marked as a photo; catalogue actors are illustrated.
    const list = (await call(u, 'GET', '/avatars')).json as Avatar[];
    expect(list.find((a) => a.id === c.id)).toMatchObject({ kind: 'photo', own: true });
    expect(list.filter((a) => a.catalogue).every((a) => a.kind === 'illustrated' && !a.own)).toBe(true);
    expect(((await call(u, 'GET', '/creators')).json as Creator[]).map((x) => x.id)).toEqual([c.id]);
    // Their card's talking preview is rendered once in the background (decision 207): their photo, the line.
    expect(c.preview_url).toBeNull();
    const ready = await waitFor(async () => {
      const got = Creator.parse((await call(u, 'GET', `/creators/${c.id}`)).json);
      return got.preview_url ? got : null;
    });
    expect(ready).toEqual({ ...c, preview_url: c.url.replace(/\.png$/, '-talking.mp4') });
    // The actor lists carry it for its owner too (the picker's card loops it).
    const listed = ((await call(u, 'GET', '/avatars')).json as Avatar[]).find((a) => a.id === c.id);
    expect(listed?.preview_url).toBe(ready.preview_url);
    expect(previews.get('Maya Lopez')).toEqual({
      script: "Hi, I'm Maya Lopez. This is how I'll look in your videos.",
      realPerson: true,
    });
  }, 60_000);

  it('refuses a missing consent, name or photo, a file that is not an image and a photo it cannot animate', async () => {
    const u = await insertUser(server);
    const refused = async (form: FormData, status: number, detail: RegExp) => {
      const res = await call(u, 'POST', '/creators', form);
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect((res.json as { detail: string }).detail).toMatch(detail);
    };
    await refused(await creatorForm({ consent: null }), 422, /agreed to be animated/);
    await refused(await creatorForm({ consent: 'false' }), 422, /agreed to be animated/);
    await refused(await creatorForm({ name: null }), 422, /name/i);
    await refused(await creatorForm({ name: 'x'.repeat(61) }), 422, /at most 60/);
    await refused(await creatorForm({ photo: null }), 422, /photo/i);
    await refused(await creatorForm({ photo: textPretendingToBePng() }), 415, /./);
    // The face check's own reasons reach the user.
    await refused(await creatorForm({ photo: await portraitImage('no-face') }), 422, /face/i);
    await refused(await creatorForm({ photo: await portraitImage('many-faces') }), 422, /./);
    await refused(await creatorForm({ photo: await pngImage(300, 400) }), 422, /./);
    expect((await call(u, 'GET', '/creators')).json).toEqual([]);
    expect((await storedFiles(server)).filter((f) => f.startsWith(`users/${u.id}/`))).toEqual([]);
  }, 120_000);

  it("is the owner's alone: 404 on every route for anyone else, unknown in their projects and batches", async () => {
    const owner = await insertUser(server);
    const other = await insertUser(server, { credits: 10 });
    const c = await addCreator(owner, 'Private Pat');
    for (const [method, path, body] of [
      ['GET', `/creators/${c.id}`, undefined],
      ['PATCH', `/creators/${c.id}`, { name: 'Stolen' }],
      ['DELETE', `/creators/${c.id}`, undefined],
    ] as const) {
      const res = await call(other, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toMatchObject({ detail: expect.any(String) });
    }
    expect((await call(other, 'GET', '/creators')).json).toEqual([]);
    expect(((await call(other, 'GET', '/avatars')).json as Avatar[]).map((a) => a.id)).not.toContain(c.id);
    // The id cannot be chosen in another user's project.
    const projectId = await createProjectOverHttp(server, { authHeader: other.headers } as never, 'Not mine');
    const chosen = await call(other, 'POST', `/projects/${projectId}/selected-characters`, { character_ids: [c.id] });
    expect(chosen.status).toBe(404);
    // Nor named in their spreadsheet: the name is unknown to them, and known to the owner.
    const sheet = async (u: InsertedUser) => {
      const res = await call(
        u,
        'POST',
        '/batches',
        formData([
          { name: 'csv', value: 'product,actor,script\nserum.png,private pat,Hello there.\n' },
          { name: 'products', file: await pngImage(200, 300), filename: 'serum.png', type: 'image/png' },
        ]),
      );
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return (res.json as Batch).rows[0]!;
    };
    const theirs = await sheet(other);
    expect(theirs.errors.map((e) => e.column)).toEqual(['actor']);
    const mine = await sheet(owner);
    expect(mine.errors).toEqual([]);
    expect(mine.values).toMatchObject({ actor_id: creatorActorId(c.id), actor_name: 'Private Pat' });
    // Still there, untouched.
    expect(((await call(owner, 'GET', `/creators/${c.id}`)).json as Creator).name).toBe('Private Pat');
  }, 60_000);

  it('renames and deletes, deleting its photo and taking it out of projects', async () => {
    const u = await insertUser(server, { credits: 10 });
    const c = await addCreator(u, 'Sam');
    const renamed = await call(u, 'PATCH', `/creators/${c.id}`, { name: 'Samira' });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: 'Samira', consent: c.consent });
    expect((await call(u, 'PATCH', `/creators/${c.id}`, { name: '  ' })).status).toBe(422);
    const projectId = await createProjectOverHttp(server, { authHeader: u.headers } as never, 'With Samira');
    expect(
      (await call(u, 'POST', `/projects/${projectId}/selected-characters`, { character_ids: [c.id] })).status,
    ).toBe(200);
    const photoKey = c.url;
    expect(await storedFiles(server)).toContain(photoKey);
    expect((await call(u, 'DELETE', `/creators/${c.id}`)).status).toBe(204);
    expect(await storedFiles(server)).not.toContain(photoKey);
    expect((await call(u, 'GET', `/creators/${c.id}`)).status).toBe(404);
    expect((await call(u, 'DELETE', `/creators/${c.id}`)).status).toBe(404);
    const project = (await call(u, 'GET', `/projects/${projectId}`)).json as { characters?: Array<{ id: number }> };
    expect(JSON.stringify(project)).not.toContain(`"avatar_id":${c.id}`);
  }, 60_000);

  it('renders a project with a creator as a real photo, labelled AI-generated by default', async () => {
    const u = await insertUser(server, { credits: 10 });
    const c = await addCreator(u, 'Rene');
    const projectId = await createProjectOverHttp(server, { authHeader: u.headers } as never, 'Real photo');
    await call(u, 'POST', `/projects/${projectId}/selected-characters`, { character_ids: [c.id] });
    const queued = await call(u, 'POST', `/jobs/${projectId}/queue`);
    expect(queued.status, JSON.stringify(queued.json)).toBe(201);
    const jobId = (queued.json as { id: number }).id;
    const render = await waitFor(async () => engine.inputs.get(jobId));
    expect(render.actor?.realPerson).toBe(true);
    expect(render.style?.brand?.aiLabel).toBe(true);
    const job = await waitFor(async () => {
      const row = await server.ctx.db.kysely
        .selectFrom('jobs')
        .select(['status', 'result'])
        .where('id', '=', jobId)
        .executeTakeFirst();
      return row?.status === 'completed' ? row : undefined;
    });
    expect(JSON.parse(job.result ?? '{}')).toMatchObject({ real_photo: true, ai_label: true });
  }, 60_000);
});
