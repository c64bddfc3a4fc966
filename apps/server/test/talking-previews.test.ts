import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Avatar, Creator, TalkingPreview } from '@hookreel/contracts';
import { ffprobe } from '@hookreel/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { engineMedia } from '../src/media/engine.ts';
import type { MediaPort } from '../src/media/port.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertUser, type InsertedUser } from './helpers/factories.ts';
import { creatorForm } from './helpers/images.ts';
import { waitFor } from './hook-helpers.ts';

type PreviewInput = Parameters<MediaPort['renderProjectVideo']>[0];

/** Calls the API as a user; the JSON answer when there is one. */
async function api(server: TestServer, as: InsertedUser, method: string, url: string, body?: FormData) {
  const res = await fetch(`${server.url}/api${url}`, { method, headers: as.headers, body });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
}

const askPreview = async (server: TestServer, as: InsertedUser, avatarId: number) => {
  const res = await api(server, as, 'POST', `/avatars/${avatarId}/talking-preview`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return TalkingPreview.parse(res.json);
};

/** Asks for the actor's preview until it is ready (within `ms`), as the picker does. */
const previewReady = (server: TestServer, as: InsertedUser, avatarId: number, ms: number, label: string) =>
  waitFor(
    async () => {
      const p = await askPreview(server, as, avatarId);
      return p.status === 'ready' ? p : null;
    },
    ms,
    label,
  );

const listAvatars = async (server: TestServer, as: InsertedUser) =>
  z.array(Avatar).parse((await api(server, as, 'GET', '/avatars')).json);

const previewJobs = (server: TestServer) =>
  server.ctx.db.kysely
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('name', '=', 'render-creator-preview')
    .execute();

/**
 * Talking previews of every actor (decision 219): a catalogue actor's is rendered when a user first asks for it,
 * once for everybody (asking again while it renders queues nothing more), and then listed with the actor; a
 * creator's is only for its owner.
 */
describe.each(TEST_DIALECTS)('talking previews of any actor (%s)', (dialect) => {
  let server: TestServer;
  const renders: PreviewInput[] = [];
  let release: () => void = () => undefined;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
    // A stand-in render that waits to be released, so the test can ask again while it runs; the real engine's
    // preview of a drawn actor is checked below.
    server.ctx.media = {
      ...engineMedia,
      async renderProjectVideo(input) {
        renders.push(input);
        await new Promise<void>((resolve) => (release = resolve));
        const videoPath = path.join(input.workDir, 'preview.mp4');
        await writeFile(videoPath, `preview of ${input.project.name}`);
        return { videoPath, posterPath: null };
      },
    };
    await server.ctx.jobs.start();
  }, 60_000);
  afterAll(() => server?.close());

  it('renders a catalogue actor once for everybody, and lists it with the actor', async () => {
    const first = await insertUser(server);
    const second = await insertUser(server);
    const actor = (await listAvatars(server, first)).find((a) => a.catalogue)!;
    expect(actor.preview_url).toBeNull();

    expect(await askPreview(server, first, actor.id)).toEqual({ status: 'rendering', preview_url: null });
    await waitFor(async () => renders.length === 1, 10_000, 'the render to start');
    // Asked again, by anyone, while it renders: no second job.
    expect(await askPreview(server, second, actor.id)).toEqual({ status: 'rendering', preview_url: null });
    expect(await askPreview(server, first, actor.id)).toEqual({ status: 'rendering', preview_url: null });
    expect(await previewJobs(server)).toHaveLength(1);
    // The drawn actor is animated as its rig, not as a photo of a real person.
    expect(renders[0]!.actor).toMatchObject({
      rig: { actor: { catalogueActorId: expect.any(String) }, product: null },
    });
    expect(renders[0]!.actor?.realPerson).toBeUndefined();
    release();

    const ready = await previewReady(server, second, actor.id, 10_000, 'the preview');
    expect(ready.preview_url).toMatch(/^catalogue\/actor-.*-talking\.mp4$/);
    expect(await server.ctx.files.exists(ready.preview_url!)).toBe(true);
    const listed = (await listAvatars(server, second)).find((a) => a.id === actor.id)!;
    expect(listed.preview_url).toBe(ready.preview_url);
    expect(renders).toHaveLength(1);
    expect(await previewJobs(server)).toHaveLength(1);
  });

  it("lets only a creator's owner ask for their preview, and tries a missing one again", async () => {
    const owner = await insertUser(server);
    const stranger = await insertUser(server);
    const form = await creatorForm('Ana Ruiz', 'ana.png');
    const added = await api(server, owner, 'POST', '/creators', form);
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    const creator = Creator.parse(added.json);
    expect((await api(server, stranger, 'POST', `/avatars/${creator.id}/talking-preview`)).status).toBe(404);
    expect((await api(server, owner, 'POST', '/avatars/999999/talking-preview')).status).toBe(404);

    // The preview queued when they were added: asking does not queue another.
    await waitFor(async () => renders.some((r) => r.project.name === 'Ana Ruiz'), 10_000, 'the creator preview');
    expect(await askPreview(server, owner, creator.id)).toEqual({ status: 'rendering', preview_url: null });
    const jobs = () => previewJobs(server).then((all) => all.length);
    const before = await jobs();
    release();
    await waitFor(async () => (await askPreview(server, owner, creator.id)).status === 'ready', 10_000, 'ready');
    expect(await jobs()).toBe(before);

    // Lost (a store restored without it): asking renders it again.
    const key = (await askPreview(server, owner, creator.id)).preview_url!;
    await server.ctx.files.delete(key);
    expect(await askPreview(server, owner, creator.id)).toEqual({ status: 'rendering', preview_url: null });
    expect(await jobs()).toBe(before + 1);
    await waitFor(async () => renders.filter((r) => r.project.name === 'Ana Ruiz').length === 2, 10_000, 'again');
    release();
    await waitFor(async () => (await askPreview(server, owner, creator.id)).status === 'ready', 10_000, 'ready again');
  });
});

describe("a catalogue actor's talking preview, rendered by the engine", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect: 'sqlite' });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
    await server.ctx.jobs.start();
  }, 60_000);
  afterAll(() => server?.close());

  it('is a short MP4 of the drawn actor saying their line', async () => {
    const user = await insertUser(server);
    const actor = (await listAvatars(server, user)).find((a) => a.catalogue)!;
    await askPreview(server, user, actor.id);
    const ready = await previewReady(server, user, actor.id, 90_000, 'the rendered preview');
    const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-preview-'));
    try {
      const file = path.join(dir, 'preview.mp4');
      await server.ctx.files.toLocalFile(ready.preview_url!, file);
      const probe = await ffprobe(file);
      const video = probe.streams.find((s) => s.codec_type === 'video');
      expect(video).toMatchObject({ width: 720, height: 1280 });
      expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
      expect(Number(probe.format.duration)).toBeGreaterThan(2);
      expect(Number(probe.format.duration)).toBeLessThan(8);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
