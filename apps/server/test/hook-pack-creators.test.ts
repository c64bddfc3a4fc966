import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Creator, GeneratedCharacter, type Job } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineMedia } from '../src/media/engine.ts';
import type { MediaPort } from '../src/media/port.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertUser, type InsertedUser } from './helpers/factories.ts';
import { creatorForm, storedFiles } from './helpers/images.ts';
import { fakeApprovedPreview, productForm, productPhoto, waitFor, zipEntry } from './hook-helpers.ts';

type HookInput = Parameters<MediaPort['renderHookVideo']>[0];

/**
 * Own creators in hook packs and the hook matrix (decision 207): a user's creator joins their pack as a photo
 * character (nobody else's creator can: 404), gets a preview holding the product like any character, is an actor
 * of the matrix, and its videos are rendered by the photo actor (the engine's photo path, a real person's photo
 * said in the result and the manifest). Deleting the creator takes it out of the pack with its preview picture.
 */
describe.each(TEST_DIALECTS)('own creators in hook packs (%s)', (dialect) => {
  let server: TestServer;
  const renders: HookInput[] = [];
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
    // The render is a stand-in that keeps what it was asked (the engine's own photo path is tested in packages/engine
    // and by e2e/specs/own-creators.spec.ts); compositing, the face check and the rest are the real engine's.
    server.ctx.media = {
      ...engineMedia,
      async renderHookVideo(input) {
        renders.push(input);
        const videoPath = path.join(input.outDir, 'hook.mp4');
        await writeFile(videoPath, `hook video ${renders.length}`);
        return { videoPath, posterPath: null, srtPath: null, vttPath: null };
      },
      // The creators' card previews (decision 207): a stand-in too.
      async renderProjectVideo(input) {
        const videoPath = path.join(input.workDir, 'preview.mp4');
        await writeFile(videoPath, `preview of ${input.project.name}`);
        return { videoPath, posterPath: null };
      },
    };
    await server.ctx.jobs.start();
  }, 60_000);
  afterAll(() => server?.close());

  const call = async (as: InsertedUser, method: string, url: string, body?: unknown) => {
    const json = body !== undefined && !(body instanceof FormData);
    const res = await fetch(`${server.url}/api${url}`, {
      method,
      headers: json ? { ...as.headers, 'content-type': 'application/json' } : as.headers,
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const text = bytes.toString('utf8');
    return { status: res.status, json: type.includes('json') && text ? (JSON.parse(text) as unknown) : null, bytes };
  };
  const addCreator = async (u: InsertedUser, name: string) => {
    const form = await creatorForm(name);
    const res = await call(u, 'POST', '/creators', form);
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return Creator.parse(res.json);
  };
  const newPack = async (u: InsertedUser) => {
    const pack = await call(u, 'POST', '/hooks', { name: 'Creator pack', language: 'english', accent: 'american' });
    expect(pack.status).toBe(200);
    const id = (pack.json as { id: number }).id;
    const photo = await productPhoto({ transparent: true });
    expect((await call(u, 'POST', '/hooks/upload-product', productForm(id, photo))).status).toBe(200);
    expect((await call(u, 'PUT', `/hooks/${id}`, { message: 'Glow all day' })).status).toBe(200);
    return id;
  };
  /** A pack with the user's new creator in it and the creator's preview (holding the product) made. */
  const creatorPreviewReady = async (u: InsertedUser, name: string) => {
    const creator = await addCreator(u, name);
    const packId = await newPack(u);
    const character = GeneratedCharacter.parse(
      (await call(u, 'POST', `/hooks/${packId}/creators`, { creator_id: creator.id })).json,
    );
    const previews = await call(u, 'POST', '/hooks/generate-preview', {
      hook_pack_id: packId,
      character_ids: [character.id],
    });
    expect(previews.status, JSON.stringify(previews.json)).toBe(200);
    const previewId = (previews.json as Array<{ id: number }>)[0]!.id;
    const preview = await waitFor(
      async () => {
        const pack = (await call(u, 'GET', `/hooks/${packId}`)).json as {
          preview_characters: Array<{ id: number; url: string }>;
        };
        return pack.preview_characters.find((p) => p.id === previewId && p.url) ?? null;
      },
      60_000,
      'the preview',
    );
    return { creator, packId, character, previewId, previewUrl: preview.url };
  };
  const jobDone = (u: InsertedUser, jobId: number) =>
    waitFor(
      async () => {
        const j = (await call(u, 'GET', `/jobs/${jobId}`)).json as Job;
        if (j.status === 'failed') expect.fail(`job ${jobId} failed: ${j.error}`);
        return j.status === 'completed' ? j : null;
      },
      60_000,
      `job ${jobId}`,
    );

  it("adds the owner's creator to their pack as a selected photo character, once", async () => {
    const u = await insertUser(server);
    const creator = await addCreator(u, 'Maya');
    const packId = await newPack(u);
    const added = await call(u, 'POST', `/hooks/${packId}/creators`, { creator_id: creator.id });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const character = GeneratedCharacter.parse(added.json);
    expect(character).toMatchObject({
      prompt: 'Maya',
      selected: true,
      kind: 'photo',
      creator_id: creator.id,
      url: creator.url,
      character_type_id: null,
    });
    // Again: the same character, selected again after being unselected; nothing new, nothing charged.
    expect((await call(u, 'POST', `/hooks/select-character/${character.id}?selected=false`)).status).toBe(200);
    const again = GeneratedCharacter.parse(
      (await call(u, 'POST', `/hooks/${packId}/creators`, { creator_id: creator.id })).json,
    );
    expect(again).toMatchObject({ id: character.id, selected: true });
    const listed = (await call(u, 'GET', `/hooks/characters/${packId}`)).json as GeneratedCharacter[];
    expect(listed.map((c) => [c.id, c.kind])).toEqual([[character.id, 'photo']]);
  }, 60_000);

  it("refuses another user's creator, another user's pack and a library actor with 404", async () => {
    const owner = await insertUser(server);
    const other = await insertUser(server);
    const creator = await addCreator(owner, 'Private Pat');
    const ownersPack = await newPack(owner);
    const othersPack = await newPack(other);
    const stolen = await call(other, 'POST', `/hooks/${othersPack}/creators`, { creator_id: creator.id });
    expect(stolen.status).toBe(404);
    expect(stolen.json).toMatchObject({ detail: 'Creator not found' });
    const intoTheirs = await call(other, 'POST', `/hooks/${ownersPack}/creators`, { creator_id: creator.id });
    expect(intoTheirs.status).toBe(404);
    // A catalogue actor is not one of the user's creators.
    const catalogue = await server.ctx.db.kysely
      .selectFrom('avatars')
      .select('id')
      .where('catalogue_actor_id', 'is not', null)
      .executeTakeFirstOrThrow();
    expect((await call(owner, 'POST', `/hooks/${ownersPack}/creators`, { creator_id: catalogue.id })).status).toBe(404);
    expect((await call(other, 'GET', `/hooks/characters/${othersPack}`)).json).toEqual([]);
  }, 60_000);

  it('previews the creator holding the product, renders matrix videos with the photo actor and says so', async () => {
    const u = await insertUser(server, { credits: 100 });
    const { packId, character, previewId, previewUrl } = await creatorPreviewReady(u, 'Maya Lopez');
    // A creator is their photo: no other person of them can be made; the product can move.
    const person = await call(u, 'POST', `/hooks/preview/${previewId}/regenerate?reason=person`);
    expect(person.status).toBe(422);
    expect((person.json as { detail: string }).detail).toMatch(/photo is who they are/);
    expect((await call(u, 'PUT', `/hooks/preview/${previewId}`, { approved: true })).status).toBe(200);

    const queued = await call(u, 'POST', `/jobs/hook-pack/${packId}/queue-videos`, {
      matrix: { hooks: ['Glow all day', 'Your skin on holiday'], character_ids: [character.id], ctas: ['Shop now'] },
    });
    expect(queued.status, JSON.stringify(queued.json)).toBe(200);
    const jobs = (await call(u, 'GET', `/jobs/hook-pack/${packId}/jobs`)).json as Job[];
    expect(jobs).toHaveLength(2);
    for (const j of jobs) await jobDone(u, j.id);
    // "Make realistic" is not offered for them (Realistic hook videos are made from descriptions).
    const finished = (await call(u, 'GET', `/jobs/hook-pack/${packId}/jobs`)).json as Job[];
    expect(finished.map((j) => j.realistic_upgrade_cost)).toEqual([null, null]);

    const mine = renders.filter((r) => r.hookText === 'Glow all day' || r.hookText === 'Your skin on holiday');
    expect(mine).toHaveLength(2);
    for (const r of mine) {
      // The approved preview's still (the photo fitted into the frame, product on it) with the upload's face.
      expect(r.photo).toMatchObject({ gender: expect.stringMatching(/^(male|female)$/) });
      expect(r.photo?.imagePath).toMatch(/creator-\d+-holding\.png$/);
      expect(r.photo?.faceSourcePath).toMatch(/creator-\d+\.png$/);
      expect(r.photo?.face?.points.length).toBeGreaterThan(100);
      expect(r.photo?.productBox?.w).toBeGreaterThan(0);
      // The brand kit's default AI label applies to a real person's photo (decision 201).
      expect(r.style?.brand?.aiLabel).toBe(true);
    }
    expect(previewUrl).toBeTruthy();

    const zip = await call(u, 'GET', `/hooks/${packId}/download`);
    expect(zip.status).toBe(200);
    const manifest = zipEntry(zip.bytes, 'manifest.csv').toString('utf8');
    const [head, ...rows] = manifest.trim().split('\r\n');
    const cols = head!.split(',');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const cells = row.split(',');
      expect(cells[cols.indexOf('actor')]).toBe('Maya Lopez');
      expect(cells[cols.indexOf('file')]).toMatch(/maya-lopez\.mp4$/);
      expect(cells[cols.indexOf('real_photo')]).toBe('yes');
      expect(cells[cols.indexOf('ai_label')]).toBe('yes');
    }
  }, 180_000);

  it('refuses a Realistic pack with a creator before holding anything (Realistic makes characters from descriptions)', async () => {
    const u = await insertUser(server, { credits: 100 });
    const creator = await addCreator(u, 'Real Rita');
    const packId = await newPack(u);
    const character = GeneratedCharacter.parse(
      (await call(u, 'POST', `/hooks/${packId}/creators`, { creator_id: creator.id })).json,
    );
    await fakeApprovedPreview(server, packId, character.id);
    expect((await call(u, 'PUT', `/hooks/${packId}`, { quality: 'realistic' })).status).toBe(200);
    // As a server whose providers would make Realistic hook packs.
    const media = server.ctx.media;
    const available = { available: true, missing: [] };
    server.ctx.media = {
      ...media,
      capabilities: () => {
        const caps = media.capabilities();
        return { ...caps, realistic: { videos: available, hook_packs: available } };
      },
    };
    try {
      const queued = await call(u, 'POST', `/jobs/hook-pack/${packId}/queue-videos`, {
        matrix: { hooks: ['Glow all day'], character_ids: [character.id], ctas: ['Shop now'] },
      });
      expect(queued.status).toBe(422);
      expect((queued.json as { detail: string }).detail).toMatch(/videos with your creators render in Draft/);
    } finally {
      server.ctx.media = media;
    }
    expect((await call(u, 'GET', `/jobs/hook-pack/${packId}/jobs`)).json).toEqual([]);
  }, 60_000);

  it('deleting the creator takes them out of the pack and removes their preview picture', async () => {
    const u = await insertUser(server, { credits: 100 });
    const { creator, packId, previewUrl: key } = await creatorPreviewReady(u, 'Leaving Lee');
    expect(await storedFiles(server)).toContain(key);
    // Their card's talking preview is there too (decision 207), and goes with them.
    const talking = await waitFor(
      async () => Creator.parse((await call(u, 'GET', `/creators/${creator.id}`)).json).preview_url,
      60_000,
      'the talking preview',
    );
    expect(await storedFiles(server)).toContain(talking);
    expect((await call(u, 'DELETE', `/creators/${creator.id}`)).status).toBe(204);
    const pack = (await call(u, 'GET', `/hooks/${packId}`)).json as {
      generated_characters: unknown[];
      preview_characters: unknown[];
    };
    expect(pack.generated_characters).toEqual([]);
    expect(pack.preview_characters).toEqual([]);
    const files = await storedFiles(server);
    expect(files).not.toContain(key);
    expect(files).not.toContain(creator.url);
    expect(files).not.toContain(talking);
  }, 120_000);
});
