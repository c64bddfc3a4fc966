import { HookPackSummary, Job, MESSAGES } from '@hookreel/contracts';
import { NAMED_PERSON_MESSAGE } from '@hookreel/engine';
import { openAIImagesHandler, type FakeReply } from '@hookreel/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { call, fakeApprovedPreview, packWithCharacters } from './hook-helpers.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { FAKE_PROVIDERS, plainPng, startProviderFakes, type ProviderFakes } from './helpers/provider-fakes.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertUser, type InsertedUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * "Make realistic" on a finished draft video of a hook pack, over HTTP against local fakes of every provider: the
 * same hook line, character and placement rendered again through the providers as a new job holding only the
 * difference (Realistic hook-video price − Draft price); only the owner may ask; a second tab is refused while one
 * upgrade is queued, running or done; a provider refusal releases the difference and leaves the draft as the pack's
 * video; a finished upgrade becomes the pack's video and the draft stays whole.
 */
const EL_KEY = FAKE_PROVIDERS.keys.elevenLabs;
// A Realistic hook video is 1 + 8 s × 0.04 credits; the draft paid 1, so the upgrade holds 0.32.
const UPGRADE_HUNDREDTHS = 32;
const HOOK = 'Glow all day';

let elevenFail: FakeReply | undefined;
let fakes: ProviderFakes;

beforeAll(async () => {
  fakes = await startProviderFakes({
    seconds: 2,
    imageModel: true,
    elevenFail: () => elevenFail,
    openai: openAIImagesHandler({ portrait: await plainPng('#c8a58a'), edited: await plainPng('#b08d74') }),
  });
});
afterAll(async () => {
  await fakes?.close();
});

for (const dialect of TEST_DIALECTS) {
  describe(`Make realistic on a hook-pack video (${dialect})`, () => {
    let server: TestServer;
    let owner: InsertedUser;
    let packId: number;
    let draft: Job;
    /** What the owner had consumed once the draft was made (characters and the draft video). */
    let spent: number;

    const as = (u: InsertedUser) => ({ authHeader: u.headers });
    const balances = () => ledgerBalances(server.ctx.db.kysely, owner.id);
    const finished = (id: number) =>
      waitFor(async () => {
        const j = Job.parse((await call(server, as(owner), 'GET', `/api/jobs/${id}`)).json);
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 150_000);
    const packJobs = async () =>
      Job.array().parse((await call(server, as(owner), 'GET', `/api/jobs/hook-pack/${packId}/jobs`)).json);
    const makeRealistic = (u: InsertedUser, jobId: number) =>
      call(server, as(u), 'POST', `/api/jobs/${jobId}/make-realistic`);

    beforeAll(async () => {
      server = await startTestServer({ dialect });
      server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 100 };
      await server.ctx.jobs.start();
      owner = await insertUser(server, { credits: 5 });
      const pack = await packWithCharacters(server, as(owner), { name: 'Glow Serum', count: 1 });
      packId = pack.id;
      const characterId = pack.characters[0]!;
      await fakeApprovedPreview(server, packId, characterId);
      const queued = await call(server, as(owner), 'POST', `/api/jobs/hook-pack/${packId}/queue-videos`, {
        variants: [{ index: 1, generated_character_id: characterId, hook_text: HOOK }],
      });
      expect(queued.status).toBe(200);
      draft = await finished((await packJobs())[0]!.id);
      expect(draft, draft.error ?? '').toMatchObject({ status: 'completed', render_quality: 'draft' });
      spent = (await balances()).consumed;
    }, 240_000);
    afterAll(() => server?.close());

    it('offers the draft for the difference, to its owner only, and refunds a provider refusal', async () => {
      expect(draft.realistic_upgrade_cost).toBe(UPGRADE_HUNDREDTHS / 100);
      expect((await packJobs())[0]).toMatchObject({ id: draft.id, realistic_upgrade_cost: UPGRADE_HUNDREDTHS / 100 });
      expect(await balances()).toMatchObject({ held: 0 });

      // A character described as a named real person is refused before anything is held.
      const db = server.ctx.db.kysely;
      const variant = await db
        .selectFrom('hook_variants')
        .select('generated_character_id')
        .where('job_id', '=', draft.id)
        .executeTakeFirstOrThrow();
      const character = db.updateTable('generated_characters').where('id', '=', variant.generated_character_id);
      const { prompt } = await db
        .selectFrom('generated_characters')
        .select('prompt')
        .where('id', '=', variant.generated_character_id)
        .executeTakeFirstOrThrow();
      await character.set({ prompt: 'a runner who looks like Serena Williams' }).execute();
      try {
        const refused = await makeRealistic(owner, draft.id);
        expect(refused.status).toBe(422);
        expect(refused.json.detail).toBe(NAMED_PERSON_MESSAGE);
        expect(await balances()).toMatchObject({ held: 0, consumed: spent });
      } finally {
        await character.set({ prompt }).execute();
      }

      const stranger = await insertUser(server, { credits: 5 });
      expect((await makeRealistic(stranger, draft.id)).status).toBe(404);
      expect(await ledgerBalances(server.ctx.db.kysely, stranger.id)).toMatchObject({ held: 0, consumed: 0 });

      elevenFail = { status: 401, json: { detail: { status: 'invalid_api_key', message: `Invalid key ${EL_KEY}` } } };
      try {
        const res = await makeRealistic(owner, draft.id);
        expect(res.status).toBe(201);
        expect(await balances()).toMatchObject({ held: UPGRADE_HUNDREDTHS });
        const failed = await finished(res.json.id as number);
        expect(failed).toMatchObject({ status: 'failed', render_quality: 'realistic', hook_pack_id: packId });
        expect(failed.error).toMatch(/^Provider error \(ElevenLabs\): .*Invalid key \*\*\*$/);
        expect(JSON.stringify(failed)).not.toContain('SECRET');
      } finally {
        elevenFail = undefined;
      }
      // A rate limit that outlasts the adapter's and the runner's retries fails the upgrade with the provider's
      // line, after retrying (it may pass on a later try), and releases the difference too.
      elevenFail = {
        status: 429,
        headers: { 'retry-after': '0' },
        json: { detail: { status: 'too_many_concurrent_requests', message: 'Too many concurrent requests' } },
      };
      try {
        const res = await makeRealistic(owner, draft.id);
        expect(res.status).toBe(201);
        const limited = await finished(res.json.id as number);
        expect(limited.status).toBe('failed');
        expect(limited.error).toMatch(/^Provider error \(ElevenLabs\): .*Too many concurrent requests/);
        expect(limited.logs.some((l) => /Retrying|Attempt 1 failed/.test(l))).toBe(true);
        expect(JSON.stringify(limited)).not.toContain('SECRET');
      } finally {
        elevenFail = undefined;
      }

      // The difference is released; the draft is still the pack's video and can be made realistic again.
      expect(await balances()).toMatchObject({ held: 0, consumed: spent });
      const jobs = await packJobs();
      expect(jobs.map((j) => j.id)).toEqual([draft.id]);
      expect(jobs[0]!.realistic_upgrade_cost).toBe(UPGRADE_HUNDREDTHS / 100);
      // The pack's list says the last upgrade failed, and why, under the draft.
      expect(jobs[0]!.realistic_upgrade).toMatchObject({ status: 'failed' });
      expect(jobs[0]!.realistic_upgrade!.error).toMatch(
        /^Provider error \(ElevenLabs\): .*Too many concurrent requests/,
      );
    });

    it('renders the same hook through the providers, refuses a second tab, and becomes the pack video', async () => {
      const calls = {
        openai: fakes.openai.requests.length,
        eleven: fakes.eleven.requests.length,
        fal: fakes.fal.requests.length,
      };
      const res = await makeRealistic(owner, draft.id);
      expect(res.status).toBe(201);
      const id = res.json.id as number;
      expect(await balances()).toMatchObject({ held: UPGRADE_HUNDREDTHS, consumed: spent });
      // A second tab (its own request, no shared idempotency key) while the first is queued or running.
      const second = await makeRealistic(owner, draft.id);
      expect(second.status).toBe(409);
      expect(second.json.detail).toBe(MESSAGES.jobs.upgradeUnderway);
      expect(await balances()).toMatchObject({ held: UPGRADE_HUNDREDTHS });
      // Until it is done the pack's list shows the draft with its upgrade under way (the avatar provider is polled
      // after 2 s at the soonest, so it cannot be done yet), and no longer offers it.
      const during = (await packJobs())[0]!;
      expect(during).toMatchObject({ id: draft.id, realistic_upgrade_cost: null });
      expect(during.realistic_upgrade).toMatchObject({ job_id: id, error: null });
      expect(['queued', 'in_progress']).toContain(during.realistic_upgrade!.status);
      // The hook-pack list says so too.
      const summary = (await call(server, as(owner), 'GET', '/api/hooks')).json as Array<{ id: number }>;
      expect(
        HookPackSummary.array()
          .parse(summary)
          .find((p) => p.id === packId),
      ).toMatchObject({
        realistic_upgrades: { count: 1 },
      });

      const real = await finished(id);
      expect(real, real.error ?? '').toMatchObject({
        status: 'completed',
        render_quality: 'realistic',
        hook_pack_id: packId,
        variant_index: 1,
        hook_text: HOOK,
        variant_id: draft.variant_id,
        actor_name: draft.actor_name,
        realistic_upgrade_cost: null,
      });
      expect(real.quality).not.toBe('fail');
      // Photoreal character, product in hand, voice of the same line, talking actor.
      expect(real.cost).toMatchObject({ images: 2, characters: HOOK.length, seconds: 2 });
      expect(fakes.openai.requests.slice(calls.openai).map((r) => r.path)).toEqual([
        '/v1/images/generations',
        '/v1/images/edits',
      ]);
      expect(fakes.eleven.requests.slice(calls.eleven).map((r) => r.json<{ text: string }>().text)).toEqual([HOOK]);
      expect(fakes.fal.requests.slice(calls.fal).some((r) => r.method === 'POST')).toBe(true);
      expect(await balances()).toMatchObject({ held: 0, consumed: spent + UPGRADE_HUNDREDTHS });

      // The pack now shows the realistic video; the draft keeps its own files and is not offered again.
      expect((await packJobs()).map((j) => [j.id, j.realistic_upgrade])).toEqual([[id, null]]);
      const listed = HookPackSummary.array().parse((await call(server, as(owner), 'GET', '/api/hooks')).json);
      expect(listed.find((p) => p.id === packId)).toMatchObject({ realistic_upgrades: null });
      expect(real.video_url).not.toBe(draft.video_url);
      for (const url of [draft.video_url, real.video_url]) {
        expect((await fetch(`${server.url}/api/${url}`)).status).toBe(200);
      }
      const after = Job.parse((await call(server, as(owner), 'GET', `/api/jobs/${draft.id}`)).json);
      expect(after.realistic_upgrade_cost).toBeNull();
      expect((await makeRealistic(owner, draft.id)).status).toBe(409);
      expect((await makeRealistic(owner, id)).status).toBe(409);
      expect(await balances()).toMatchObject({ held: 0, consumed: spent + UPGRADE_HUNDREDTHS });
    });
  });
}
