import { HookPack, Job, PriceList } from '@hookreel/contracts';
import { NAMED_PERSON_MESSAGE } from '@hookreel/engine';
import { openAIImagesHandler } from '@hookreel/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { call, fakeApprovedPreview, packWithCharacters } from './hook-helpers.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import {
  FAKE_PROVIDERS,
  falSubmitAfterUploads,
  plainPng,
  startProviderFakes,
  type ProviderFakes,
} from './helpers/provider-fakes.ts';
import { insertUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * A Realistic hook-pack video, end to end over HTTP against local fakes of every provider (their documented wire
 * formats, real HTTP servers): the pack is set to Realistic through PUT /api/hooks/{id}, its video holds the
 * realistic hook-video price (a flat 8 s, docs/providers.md), and the render goes photoreal character → product
 * in hand → voice → talking actor, then captures exactly that price.
 */
const FAL_KEY = FAKE_PROVIDERS.keys.fal;
const AVATAR_MODEL = FAKE_PROVIDERS.avatarModel;
// 1 credit for the video plus 8 s × 0.04 at the default per-second price.
const HOOK_VIDEO_HUNDREDTHS = 132;
const HOOK = 'Glow all day';

let fakes: ProviderFakes;

beforeAll(async () => {
  fakes = await startProviderFakes({
    seconds: 2.5,
    imageModel: true,
    openai: openAIImagesHandler({ portrait: await plainPng('#c8a58a'), edited: await plainPng('#b08d74') }),
  });
});
afterAll(async () => {
  await fakes?.close();
});

describe('Realistic hook pack with fake providers (sqlite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 100 };
    await server.ctx.jobs.start();
  });
  afterAll(() => server.close());

  it('refuses a Realistic video of a character described as a named real person, before holding anything', async () => {
    const u = await insertUser(server, { credits: 5 });
    const user = { authHeader: u.headers };
    const pack = await packWithCharacters(server, user, { name: 'Lookalike', count: 1 });
    const characterId = pack.characters[0]!;
    await fakeApprovedPreview(server, pack.id, characterId);
    const db = server.ctx.db.kysely;
    await db
      .updateTable('generated_characters')
      .set({ prompt: 'a young woman who looks like Taylor Swift' })
      .where('id', '=', characterId)
      .execute();
    expect((await call(server, user, 'PUT', `/api/hooks/${pack.id}`, { quality: 'realistic' })).status).toBe(200);
    const before = await ledgerBalances(db, u.id);
    const calls = fakes.openai.requests.length + fakes.eleven.requests.length + fakes.fal.requests.length;
    const queued = await call(server, user, 'POST', `/api/jobs/hook-pack/${pack.id}/queue-videos`, {
      variants: [{ index: 1, generated_character_id: characterId, hook_text: HOOK }],
    });
    expect(queued.status).toBe(422);
    expect(queued.json.detail).toBe(NAMED_PERSON_MESSAGE);
    expect(await ledgerBalances(db, u.id)).toEqual(before);
    expect(fakes.openai.requests.length + fakes.eleven.requests.length + fakes.fal.requests.length).toBe(calls);
    expect(Job.array().parse((await call(server, user, 'GET', `/api/jobs/hook-pack/${pack.id}/jobs`)).json)).toEqual(
      [],
    );
  });

  it(
    'renders a Realistic pack video through the providers and charges the realistic hook-video price',
    { timeout: 180_000 },
    async () => {
      const prices = PriceList.parse(await (await fetch(`${server.url}/api/credits/prices`)).json());
      expect(prices.realistic.hook_video).toBe(HOOK_VIDEO_HUNDREDTHS / 100);

      const u = await insertUser(server, { credits: 5 });
      const user = { authHeader: u.headers };
      const pack = await packWithCharacters(server, user, { name: 'Glow Serum', count: 4 });
      const characterId = pack.characters[0]!;
      // The characters are made by the images provider (the pack is ready once each has a portrait).
      await waitFor(async () => {
        const list = (await call(server, user, 'GET', `/api/hooks/characters/${pack.id}`)).json as {
          url: string | null;
        }[];
        return list.length === 4 && list.every((c) => c.url) ? list : null;
      }, 60_000);
      await fakeApprovedPreview(server, pack.id, characterId);

      const put = await call(server, user, 'PUT', `/api/hooks/${pack.id}`, { quality: 'realistic', voice_speed: 1.1 });
      expect(put.status).toBe(200);
      expect(HookPack.parse(put.json)).toMatchObject({ quality: 'realistic', voice_speed: 1.1 });

      const db = server.ctx.db.kysely;
      const before = await ledgerBalances(db, u.id);
      const [oaBefore, elBefore, falBefore] = [
        fakes.openai.requests.length,
        fakes.eleven.requests.length,
        fakes.fal.requests.length,
      ];
      const queued = await call(server, user, 'POST', `/api/jobs/hook-pack/${pack.id}/queue-videos`, {
        variants: [{ index: 1, generated_character_id: characterId, hook_text: HOOK }],
      });
      expect(queued.status).toBe(200);
      expect(queued.json).toEqual({ hook_pack_id: pack.id, total_jobs: 1 });
      expect(await ledgerBalances(db, u.id)).toMatchObject({
        held: before.held + HOOK_VIDEO_HUNDREDTHS,
        available: before.available - HOOK_VIDEO_HUNDREDTHS,
      });

      const jobs = Job.array().parse((await call(server, user, 'GET', `/api/jobs/hook-pack/${pack.id}/jobs`)).json);
      expect(jobs).toHaveLength(1);
      const job = await waitFor(async () => {
        const j = Job.parse((await call(server, user, 'GET', `/api/jobs/${jobs[0]!.id}`)).json);
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 150_000);
      expect(job, job.error ?? '').toMatchObject({ status: 'completed', render_quality: 'realistic', hook_text: HOOK });
      expect(job.quality).not.toBe('fail');
      // One photoreal character, one product-in-hand edit, the voice and the talking actor.
      expect(job.cost).toMatchObject({ images: 2, characters: HOOK.length, seconds: 2.5 });
      expect(fakes.openai.requests.slice(oaBefore).map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /v1/images/generations',
        'POST /v1/images/edits',
      ]);
      const speech = fakes.eleven.requests.slice(elBefore);
      expect(speech).toHaveLength(1);
      expect(speech[0]!.json<{ text: string; voice_settings: { speed: number } }>()).toMatchObject({
        text: HOOK,
        voice_settings: { speed: 1.1 },
      });
      const submit = falSubmitAfterUploads(fakes.fal, falBefore, AVATAR_MODEL);
      expect(submit.headers.authorization).toBe(`Key ${FAL_KEY}`);

      const video = await fetch(`${server.url}/api/${job.video_url}`);
      expect(video.status).toBe(200);
      expect(video.headers.get('content-type')).toBe('video/mp4');
      expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(10_000);

      // The held price is captured as it was shown: no more, no less.
      expect(await ledgerBalances(db, u.id)).toMatchObject({
        held: before.held,
        consumed: before.consumed + HOOK_VIDEO_HUNDREDTHS,
      });
      expect(JSON.stringify(job)).not.toContain('SECRET');
    },
  );
});
