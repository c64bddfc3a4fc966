import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { AvatarWithStatus } from '@hookreel/contracts';
import { Avatar, Capabilities, Job, MESSAGES, PriceList, Project, ProviderUsageByPlan } from '@hookreel/contracts';
import {
  geminiImageEditHandler,
  openAIEditsHandler,
  startFakeServer,
  type FakeReply,
  type FakeServer,
} from '@hookreel/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarsRepository } from '../src/db/repositories/avatars.ts';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { resetEngineConfig } from '../src/media/engine.ts';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { call, createProductProject } from './hook-helpers.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import {
  FAKE_PROVIDERS,
  falSubmitAfterUploads,
  plainPng,
  startProviderFakes,
  type ProviderFakes,
} from './helpers/provider-fakes.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { TEST_SCRIPT, insertProject, insertUser, type InsertedUser } from './helpers/factories.ts';
import { formData } from './helpers/images.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Draft and Realistic against local fakes of the providers (their documented wire formats, real HTTP servers):
 * GET /api/capabilities and the prices; a Draft video that stays local although providers are configured; "Make
 * realistic" on it (a new job through the providers, holding only the difference); a Realistic project whose
 * merge goes through the image-edit provider and whose video goes through the talking-actor and voice providers at
 * the project's voice speed; the same merge through Gemini when GEMINI_API_KEY is the edit provider; a provider
 * refusal (failed job, credits released, no key shown); Realistic refused before any hold when the providers are
 * not configured, or when a catalogue actor (a drawing) would be animated with the images provider off.
 */
const EL_KEY = FAKE_PROVIDERS.keys.elevenLabs;
const OPENAI_KEY = FAKE_PROVIDERS.keys.openAI;
const AVATAR_MODEL = FAKE_PROVIDERS.avatarModel;
const GEMINI_KEY = 'AIzaSy-SECRET-gemini-0123456789';
// TEST_SCRIPT has 45 characters: 4 s at 14 characters a second, so Realistic is 1 + 4 × 0.04 credits.
const UPGRADE_HUNDREDTHS = 16;
// Spoken at 1.1x the same script takes 3 s: 1 + 3 × 0.04.
const FAST_PRICE_HUNDREDTHS = 112;
const ADMIN_EMAIL = 'realistic-admin@example.com';
const placement = { position_x: 300, position_y: 640, scale: 0.3, rotation: -8 };

let elevenFail: FakeReply | undefined;
/** fal submits answered 503 before the fake answers again (a job whose avatar step fails after the voice). */
let falSubmitFailures = 0;
/** A refusal fal answers the next avatar submit with (a 4xx is not retried). */
let falSubmitRefusal: FakeReply | undefined;
/** Read when fal is asked for the avatar: what the job keeps for its retries at that moment (see paidFiles). */
let onFalSubmit: (() => Promise<void>) | null = null;
let fakes: ProviderFakes;
let gemini: FakeServer;

beforeAll(async () => {
  // What the image-edit model answers: a 2:3 portrait (gpt-image-1's 1024x1536), one plain colour.
  const edited = await plainPng('#b08d74');
  fakes = await startProviderFakes({
    seconds: 2.5,
    openai: openAIEditsHandler({ image: edited }),
    elevenFail: () => elevenFail,
    fal: (queue) => async (req, s) => {
      if (req.method === 'POST' && req.path === `/${AVATAR_MODEL}`) {
        await onFalSubmit?.();
        if (falSubmitFailures > 0) {
          falSubmitFailures--;
          return { status: 503, json: { detail: 'Service temporarily unavailable' } };
        }
        if (falSubmitRefusal) {
          const refusal = falSubmitRefusal;
          falSubmitRefusal = undefined;
          return refusal;
        }
      }
      return queue(req, s);
    },
  });
  gemini = await startFakeServer(geminiImageEditHandler({ image: edited }));
});
afterAll(async () => {
  await Promise.all([fakes?.close(), gemini?.close()]);
});

for (const dialect of TEST_DIALECTS) {
  describe(`Draft and Realistic with fake providers (${dialect})`, () => {
    let server: TestServer;
    const api = (p: string) => `${server.url}/api${p}`;

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: { ADMIN_EMAILS: ADMIN_EMAIL } });
      server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 100 };
      await server.ctx.jobs.start();
    });
    afterAll(() => server.close());

    const asUser = (u: InsertedUser) => ({ authHeader: u.headers });

    /**
     * A project with the script and an uploaded photo actor (a still, so the talking-actor provider animates it
     * as it is), in the given quality.
     */
    async function projectWithActor(u: InsertedUser, quality: 'draft' | 'realistic') {
      const projectId = await insertProject(server, u.id, 'Realistic promo');
      await projectsRepository.update(server.ctx.db.kysely, u.id, projectId, { render_quality: quality });
      const sel = await call(server, asUser(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [await uploadedActor(u)],
      });
      expect(sel.status).toBe(200);
      return projectId;
    }

    /** A project made over HTTP from a product photo, with the script and `settings` saved through PUT. */
    async function projectOverHttp(u: InsertedUser, name: string, settings: Record<string, unknown>): Promise<Project> {
      const created = await createProductProject(server, asUser(u), name, 'serum.png');
      expect(created.status).toBe(200);
      const id = (created.json as { id: number }).id;
      const put = await call(server, asUser(u), 'PUT', `/api/projects/${id}`, { script: TEST_SCRIPT, ...settings });
      expect(put.status).toBe(200);
      return Project.parse(put.json);
    }

    /** POST /api/merge/single: the product placed in the actor's hand (`placement`). */
    const mergeSingle = (u: InsertedUser, projectId: number, characterId: number) =>
      call(
        server,
        asUser(u),
        'POST',
        '/api/merge/single',
        formData([
          { name: 'project_id', value: String(projectId) },
          { name: 'character_id', value: String(characterId) },
          { name: 'mask_data', value: JSON.stringify(placement) },
        ]),
      );

    /** An actor the user uploaded (with consent), from a catalogue picture's file: a photo, not a drawing. */
    async function uploadedActor(u: InsertedUser): Promise<number> {
      const db = server.ctx.db.kysely;
      const catalogue = await db
        .selectFrom('avatars')
        .select('image_key')
        .where('catalogue_actor_id', '=', '1')
        .executeTakeFirstOrThrow();
      const actor = await avatarsRepository.insertUploadedPhoto(db, {
        owner_user_id: u.id,
        created_by_user_id: u.id,
        image_key: catalogue.image_key,
        name: 'Uploaded actor',
        consent_confirmed_at: new Date().toISOString(),
        consent_by_user_id: u.id,
      });
      return actor.id;
    }

    async function finished(u: InsertedUser, id: number): Promise<Job> {
      return waitFor(async () => {
        const j = Job.parse((await call(server, asUser(u), 'GET', `/api/jobs/${id}`)).json);
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 90_000);
    }

    async function queue(u: InsertedUser, projectId: number) {
      const res = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(res.status).toBe(201);
      const id = (res.json as { id: number }).id;
      return { id, job: await finished(u, id) };
    }

    const providerCalls = () => fakes.eleven.requests.length + fakes.fal.requests.length + fakes.openai.requests.length;

    it('tells the browser what Realistic needs and costs, with no secret', async () => {
      const res = await fetch(api('/capabilities'));
      expect(res.status).toBe(200);
      const text = await res.text();
      const caps = Capabilities.parse(JSON.parse(text));
      expect(caps.stages.voice).toEqual({ remote: true, provider: 'ElevenLabs', word_timings: 'exact' });
      expect(caps.stages.talking_actor).toEqual({ remote: true, provider: 'fal' });
      expect(caps.stages.product_in_hand).toEqual({ remote: true, provider: 'OpenAI-compatible' });
      expect(caps.realistic.videos).toEqual({ available: true, missing: [] });
      expect(caps.realistic.hook_packs).toEqual({
        available: false,
        missing: ['Characters: set OPENAI_IMAGE_MODEL'],
      });
      for (const secret of ['SECRET', fakes.eleven.url, fakes.fal.url, fakes.openai.url])
        expect(text).not.toContain(secret);
      const prices = PriceList.parse(await (await fetch(api('/credits/prices'))).json());
      expect(prices.realistic).toEqual({ credits_per_second: 0.04, hook_video: 1.32 });
    });

    it('keeps a Draft video local, then makes it realistic through the providers for the difference', async () => {
      elevenFail = undefined;
      const u = await insertUser(server, { credits: 3 });
      const projectId = await projectWithActor(u, 'draft');
      const before = providerCalls();
      const draft = await queue(u, projectId);
      expect(draft.job).toMatchObject({
        status: 'completed',
        render_quality: 'draft',
        cost: null,
        realistic_upgrade_cost: UPGRADE_HUNDREDTHS / 100,
      });
      expect(providerCalls()).toBe(before);
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ consumed: 100, available: 200 });

      const res = await call(server, asUser(u), 'POST', `/api/jobs/${draft.id}/make-realistic`);
      expect(res.status).toBe(201);
      const id = (res.json as { id: number }).id;
      expect(id).not.toBe(draft.id);
      // Only the difference is held.
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 16, available: 184 });
      // Until it is done the draft says its upgrade is under way (the avatar provider is polled after 2 s at the
      // soonest, so it cannot be done yet), links to it, and is not offered again: a second tab is refused.
      const during = Job.parse((await call(server, asUser(u), 'GET', `/api/jobs/${draft.id}`)).json);
      expect(during).toMatchObject({ realistic_upgrade_cost: null, realistic_upgrade: { job_id: id, error: null } });
      expect(['queued', 'in_progress']).toContain(during.realistic_upgrade!.status);
      const listed = Job.array().parse((await call(server, asUser(u), 'GET', '/api/jobs/')).json);
      expect(listed.find((j) => j.id === draft.id)!.realistic_upgrade).toMatchObject({ job_id: id });
      const second = await call(server, asUser(u), 'POST', `/api/jobs/${draft.id}/make-realistic`);
      expect(second.status).toBe(409);
      expect((second.json as { detail: string }).detail).toBe(MESSAGES.jobs.upgradeUnderway);
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 16 });
      const real = await finished(u, id);
      expect(real).toMatchObject({
        status: 'completed',
        render_quality: 'realistic',
        realistic_upgrade_cost: null,
        project_id: projectId,
        actor_name: 'Uploaded actor',
      });
      expect(real.quality).not.toBe('fail');
      // The uploaded actor has no placement: voice and talking actor, no image edit.
      expect(real.cost).toEqual({ images: 0, characters: TEST_SCRIPT.length, seconds: 2.5, calls: 2 });
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({
        consumed: 100 + UPGRADE_HUNDREDTHS,
        held: 0,
      });
      // A realistic video is not made realistic again; the draft could be, again, on purpose, and no longer
      // reports the done upgrade (it is its own video in the list).
      expect((await call(server, asUser(u), 'POST', `/api/jobs/${id}/make-realistic`)).status).toBe(409);
      expect(Job.parse((await call(server, asUser(u), 'GET', `/api/jobs/${draft.id}`)).json)).toMatchObject({
        realistic_upgrade: null,
        realistic_upgrade_cost: UPGRADE_HUNDREDTHS / 100,
      });

      // An upgrade that fails at a provider is reported on the draft with its plain line, its credits returned.
      elevenFail = { status: 401, json: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } };
      try {
        const again = await call(server, asUser(u), 'POST', `/api/jobs/${draft.id}/make-realistic`);
        expect(again.status).toBe(201);
        const failedId = (again.json as { id: number }).id;
        expect((await finished(u, failedId)).status).toBe('failed');
        const after = Job.parse((await call(server, asUser(u), 'GET', `/api/jobs/${draft.id}`)).json);
        expect(after).toMatchObject({
          realistic_upgrade_cost: UPGRADE_HUNDREDTHS / 100,
          realistic_upgrade: { job_id: failedId, status: 'failed' },
        });
        expect(after.realistic_upgrade!.error).toMatch(/^Provider error \(ElevenLabs\): /);
        expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({
          consumed: 100 + UPGRADE_HUNDREDTHS,
          held: 0,
        });
      } finally {
        elevenFail = undefined;
      }
      const raw = JSON.stringify((await call(server, asUser(u), 'GET', '/api/jobs/')).json);
      expect(raw).not.toContain('SECRET');
    });

    it('merges a Realistic project through the image edit and renders it through the providers at its speed', async () => {
      elevenFail = undefined;
      const u = await insertUser(server, { credits: 5 });
      const project = await projectOverHttp(u, 'Serum launch', { quality: 'realistic', voice_speed: 1.1 });
      expect(project).toMatchObject({ quality: 'realistic', voice_speed: 1.1 });
      const projectId = project.id;
      const actorId = await uploadedActor(u);
      await call(server, asUser(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [actorId],
      });
      const editsBefore = fakes.openai.requests.length;
      const merge = await mergeSingle(u, projectId, actorId);
      expect(merge.status).toBe(200);
      const mergeJob = await finished(u, (merge.json as { job_id: number }).job_id);
      expect(mergeJob.status).toBe('completed');
      expect(mergeJob.cost).toEqual({ images: 1, characters: 0, seconds: 0, calls: 1 });
      const edit = fakes.openai.requests.slice(editsBefore);
      expect(edit.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/images/edits']);
      expect(edit[0]!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
      const states = (await call(server, asUser(u), 'GET', `/api/merge/avatars-with-status/${projectId}`))
        .json as AvatarWithStatus[];
      expect(states[0]).toMatchObject({ status: 'merged' });
      expect(states[0]!.merged_url).toMatch(/merged-realistic\.png$/);

      const [elBefore, falBefore] = [fakes.eleven.requests.length, fakes.fal.requests.length];
      const queued = await call(server, asUser(u), 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`);
      expect(queued.status).toBe(200);
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: FAST_PRICE_HUNDREDTHS });
      const list = Job.array().parse((await call(server, asUser(u), 'GET', '/api/jobs/')).json);
      const video = await finished(u, list.find((j) => j.kind === 'render-project-video')!.id);
      expect(video).toMatchObject({ status: 'completed', render_quality: 'realistic' });
      expect(video.quality).not.toBe('fail');
      // The realistic merge is animated as it is: no second edit, voice then avatar video.
      expect(video.cost).toEqual({ images: 0, characters: TEST_SCRIPT.length, seconds: 2.5, calls: 2 });
      expect(fakes.openai.requests.length).toBe(editsBefore + 1);
      const speech = fakes.eleven.requests.slice(elBefore)[0]!.json<{ voice_settings: { speed: number } }>();
      expect(speech.voice_settings.speed).toBe(1.1);
      const submit = falSubmitAfterUploads(fakes.fal, falBefore, AVATAR_MODEL);
      expect(submit.json<{ image_url: string }>().image_url).toMatch(new RegExp(`^${fakes.fal.url}/files/`));
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({
        consumed: 10 + FAST_PRICE_HUNDREDTHS,
        held: 0,
      });
    });

    it('merges a Realistic project through Gemini when GEMINI_API_KEY is the image-edit provider', async () => {
      // Gemini takes the edit only without an OpenAI-compatible edit model.
      delete process.env.OPENAI_EDIT_MODEL;
      Object.assign(process.env, { GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: `${gemini.url}/v1beta` });
      resetEngineConfig();
      try {
        const caps = Capabilities.parse(await (await fetch(api('/capabilities'))).json());
        expect(caps.stages.product_in_hand).toEqual({ remote: true, provider: 'Gemini' });
        const u = await insertUser(server, { credits: 5 });
        const projectId = (await projectOverHttp(u, 'Gemini serum', { quality: 'realistic' })).id;
        const actorId = await uploadedActor(u);
        await call(server, asUser(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
          character_ids: [actorId],
        });
        const [geminiBefore, openaiBefore] = [gemini.requests.length, fakes.openai.requests.length];
        const merge = await mergeSingle(u, projectId, actorId);
        expect(merge.status).toBe(200);
        const job = await finished(u, (merge.json as { job_id: number }).job_id);
        expect(job.status, job.error ?? '').toBe('completed');
        // One generateContent call, the key in its header (never the query), the placement in words and both
        // pictures inline; no OpenAI-compatible edit.
        const sent = gemini.requests.slice(geminiBefore);
        expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
          'POST /v1beta/models/gemini-2.5-flash-image:generateContent',
        ]);
        expect(fakes.openai.requests.length).toBe(openaiBefore);
        expect(sent[0]!.headers['x-goog-api-key']).toBe(GEMINI_KEY);
        const body = sent[0]!.json<{
          contents: Array<{ parts: Array<{ text?: string; inline_data?: { mime_type: string } }> }>;
          generationConfig: unknown;
        }>();
        expect(body.generationConfig).toEqual({ responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '9:16' } });
        const parts = body.contents[0]!.parts;
        expect(parts).toHaveLength(3);
        expect(parts[0]!.text).toContain('Make the person hold this exact product');
        expect(parts.slice(1).map((p) => p.inline_data?.mime_type)).toEqual(['image/png', 'image/png']);
        // The job's cost: one image at Gemini, on its log line and in its cost field; the merge is the photoreal one.
        expect(job.cost).toEqual({ images: 1, characters: 0, seconds: 0, calls: 1 });
        expect(job.logs).toContain(
          `Provider cost: gemini placement (gemini-2.5-flash-image) 1 image, request resp-${sent[0]!.at}`,
        );
        const states = (await call(server, asUser(u), 'GET', `/api/merge/avatars-with-status/${projectId}`))
          .json as AvatarWithStatus[];
        expect(states[0]!.merged_url).toMatch(/merged-realistic\.png$/);
        expect(JSON.stringify((await call(server, asUser(u), 'GET', `/api/jobs/${job.id}`)).json)).not.toContain(
          'SECRET',
        );
        expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 0, consumed: 10 });
      } finally {
        delete process.env.GEMINI_API_KEY;
        delete process.env.GEMINI_BASE_URL;
        fakes.pointEngineAt();
      }
    });

    it('fails a refused provider call at once with a plain line, releases the credits and hides the key', async () => {
      elevenFail = {
        status: 401,
        json: { detail: { status: 'invalid_api_key', message: `Invalid API key: ${EL_KEY}` } },
      };
      const u = await insertUser(server, { credits: 3 });
      const { id, job } = await queue(u, await projectWithActor(u, 'realistic'));
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(
        /^Provider error \(ElevenLabs\): ElevenLabs error 401 on POST .*: Invalid API key: \*\*\*$/,
      );
      expect(job.logs.at(-1)).toBe(`Failed: ${job.error}`);
      // A refusal is not retried: one attempt, no "Retrying" line.
      expect(job.logs.some((l) => /Retrying|Attempt 1 failed/.test(l))).toBe(false);
      expect(job.cost).toBeNull();
      const raw = JSON.stringify((await call(server, asUser(u), 'GET', `/api/jobs/${id}`)).json);
      expect(raw).not.toContain('SECRET');
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({
        held: 0,
        consumed: 0,
        available: 300,
      });
      elevenFail = undefined;
    });

    it('refuses a Realistic video or merge of a catalogue actor before any hold while the images provider is off', async () => {
      elevenFail = undefined;
      const u = await insertUser(server, { credits: 5 });
      const db = server.ctx.db.kysely;
      // This server has no OPENAI_IMAGE_MODEL: the characters (images) stage is local.
      const caps = Capabilities.parse(await (await fetch(api('/capabilities'))).json());
      expect(caps.stages.characters.remote).toBe(false);
      const projectId = (await projectOverHttp(u, 'Drawn actor', {})).id;
      const avatars = Avatar.array().parse(
        (await call(server, asUser(u), 'GET', `/api/avatars/?project_id=${projectId}`)).json,
      );
      const drawn = avatars.find((a) => a.catalogue)!;
      expect(drawn).toBeDefined();
      await call(server, asUser(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [drawn.id],
      });
      const project = Project.parse((await call(server, asUser(u), 'GET', `/api/projects/${projectId}`)).json);
      expect(project.characters.find((c) => c.id === drawn.id)).toMatchObject({ selected: true, catalogue: true });

      // A Draft video of it renders locally; "Make realistic" on it is refused.
      const draft = await queue(u, projectId);
      expect(draft.job.status).toBe('completed');
      const spent = (await ledgerBalances(db, u.id)).consumed;
      const calls = providerCalls();
      const refused = async (res: { status: number; json: unknown }) => {
        expect(res.status).toBe(422);
        expect((res.json as { detail: string }).detail).toBe(MESSAGES.realistic.catalogueActorNeedsImages);
      };
      await refused(await call(server, asUser(u), 'POST', `/api/jobs/${draft.id}/make-realistic`));

      // In Realistic: queueing the video, merging the product into the drawn actor's hand, and queueing its
      // product-in-hand video are each refused too.
      await projectsRepository.update(db, u.id, projectId, { render_quality: 'realistic' });
      await refused(await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`));
      await refused(await mergeSingle(u, projectId, drawn.id));
      await projectsRepository.setMergeState(db, projectId, drawn.id, {
        status: 'merged',
        mergedKey: `users/${u.id}/merged/drawn.png`,
      });
      await refused(await call(server, asUser(u), 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`));
      expect(await ledgerBalances(db, u.id)).toMatchObject({ held: 0, consumed: spent });
      expect(providerCalls()).toBe(calls);

      // An uploaded photo actor needs no images provider: the same Realistic project is queued with it.
      await call(server, asUser(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [await uploadedActor(u)],
      });
      const photo = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(photo.status).toBe(201);
      expect(await finished(u, (photo.json as { id: number }).id)).toMatchObject({
        status: 'completed',
        render_quality: 'realistic',
      });
    });

    /** The files under users/<uid>/paid/job-<id>/ (what a job keeps for its retries), by job folder. */
    const paidFiles = async (u: InsertedUser): Promise<string[]> => {
      const root = path.join(server.ctx.config.filesDir, 'users', String(u.id), 'paid');
      const jobs = await readdir(root).catch(() => [] as string[]);
      const files = await Promise.all(
        jobs.map(async (j) => (await readdir(path.join(root, j)).catch(() => [] as string[])).map((f) => `${j}/${f}`)),
      );
      return files.flat().sort();
    };

    it('keeps the paid voice when the avatar step fails, the retry reuses it instead of buying it again, and the job done removes it', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await projectWithActor(u, 'realistic');
      const speechBefore = fakes.eleven.requests.length;
      // Three 503s: the adapter gives up, and the job runner retries the job.
      falSubmitFailures = 3;
      const seen: string[][] = [];
      onFalSubmit = async () => void seen.push(await paidFiles(u));
      try {
        const { id, job } = await queue(u, projectId);
        expect(job.status).toBe('completed');
        expect(falSubmitFailures).toBe(0);
        expect(fakes.eleven.requests.length - speechBefore).toBe(1);
        expect(job.cost).toMatchObject({ characters: TEST_SCRIPT.length, seconds: 2.5 });
        // While retries remained, the voice was kept (the retry's submit saw it); done, nothing is left (removed
        // just after the row says so).
        expect(seen.at(-1)!.some((f) => f.startsWith(`job-${id}/voice-`))).toBe(true);
        await waitFor(async () => (await paidFiles(u)).length === 0, 10_000);
      } finally {
        onFalSubmit = null;
      }
    });

    it('removes what a job paid for once it fails for good', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await projectWithActor(u, 'realistic');
      const speechBefore = fakes.eleven.requests.length;
      // fal refuses the inputs (a 4xx): no retry can help, so the job fails after the voice was bought.
      falSubmitRefusal = { status: 422, json: { detail: [{ msg: 'Unsupported audio', type: 'value_error' }] } };
      let before: string[] = [];
      onFalSubmit = async () => void (before = await paidFiles(u));
      try {
        const { id, job } = await queue(u, projectId);
        expect(job.status).toBe('failed');
        expect(fakes.eleven.requests.length - speechBefore).toBe(1);
        expect(before.some((f) => f.startsWith(`job-${id}/voice-`))).toBe(true);
        await waitFor(async () => (await paidFiles(u)).length === 0, 10_000);
      } finally {
        falSubmitRefusal = undefined;
        onFalSubmit = null;
      }
    });

    it('keeps the paid image edit when the avatar step fails, and the retry animates it instead of editing again', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = (await projectOverHttp(u, 'Placed serum', { quality: 'realistic' })).id;
      // Placed but never merged: the render job makes the product-in-hand still through the image edit itself.
      const actorId = await uploadedActor(u);
      await projectsRepository.setMergeState(server.ctx.db.kysely, projectId, actorId, {
        status: 'not_merged',
        maskPlacement: JSON.stringify(placement),
      });
      const admin = await insertUser(server, { email: ADMIN_EMAIL });
      // What the operator's provider-usage report says for users without a plan (every user of this file).
      const usageRow = async () => {
        const res = await call(server, asUser(admin), 'GET', '/api/admin/provider-usage?days=1');
        expect(res.status).toBe(200);
        const row = ProviderUsageByPlan.parse(res.json).plans.find((p) => p.plan === 'none');
        return row ?? { jobs: 0, images: 0, characters: 0, seconds: 0, calls: 0, credits_charged: 0 };
      };
      const reportBefore = await usageRow();
      const [editsBefore, speechBefore] = [fakes.openai.requests.length, fakes.eleven.requests.length];
      // Three 503s: the adapter gives up after the edit and the voice were paid, and the job runner retries.
      falSubmitFailures = 3;
      const { job } = await queue(u, projectId);
      expect(job.status).toBe('completed');
      expect(falSubmitFailures).toBe(0);
      expect(fakes.openai.requests.length - editsBefore).toBe(1);
      expect(fakes.eleven.requests.length - speechBefore).toBe(1);
      expect(job.cost).toMatchObject({ images: 1, characters: TEST_SCRIPT.length, seconds: 2.5 });
      expect(job.logs.some((l) => l.includes('Reusing the product-in-hand still this job already paid for'))).toBe(
        true,
      );
      // The paid calls of both attempts reach the operator's report once each, beside the credits captured.
      const reportAfter = await usageRow();
      expect({
        jobs: reportAfter.jobs - reportBefore.jobs,
        images: reportAfter.images - reportBefore.images,
        characters: reportAfter.characters - reportBefore.characters,
        seconds: Math.round((reportAfter.seconds - reportBefore.seconds) * 100) / 100,
        calls: reportAfter.calls - reportBefore.calls,
        credits: Math.round((reportAfter.credits_charged - reportBefore.credits_charged) * 100) / 100,
      }).toEqual({ jobs: 1, images: 1, characters: TEST_SCRIPT.length, seconds: 2.5, calls: 3, credits: 1.16 });
    });

    it('refuses a Realistic script longer than the talking-actor model takes before holding or calling anything', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await projectWithActor(u, 'realistic');
      // 560 characters: about 40 s of speech, over OmniHuman's 29 s.
      await projectsRepository.update(server.ctx.db.kysely, u.id, projectId, {
        script: 'This serum changed my skin in a week. '.repeat(15).trim(),
      });
      const before = providerCalls();
      const res = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(res.status).toBe(422);
      expect((res.json as { detail: string }).detail).toMatch(
        /^This script takes about \d+ s to say; this server's talking-actor model takes at most 29 s of speech\./,
      );
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 0, available: 300 });
      expect(providerCalls()).toBe(before);
    });

    it('refuses Realistic before holding anything when a provider is not configured', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await projectWithActor(u, 'realistic');
      delete process.env.FAL_KEY;
      resetEngineConfig();
      try {
        const res = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
        expect(res.status).toBe(422);
        expect((res.json as { detail: string }).detail).toBe(
          'Realistic is not available on this server. Talking actor: set FAL_KEY.',
        );
        expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 0, available: 300 });
        const caps = Capabilities.parse(await (await fetch(api('/capabilities'))).json());
        expect(caps.realistic.videos).toEqual({ available: false, missing: ['Talking actor: set FAL_KEY'] });
      } finally {
        fakes.pointEngineAt();
      }
    });
  });
}
