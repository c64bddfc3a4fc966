import { ACTORS, Job, MESSAGES, Project } from '@hookreel/contracts';
import { catalogueActorDescription } from '@hookreel/engine';
import { openAIImagesHandler, type RecordedRequest } from '@hookreel/engine/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { catalogueActorPhotoKey } from '../src/services/actors/catalogue-actor-photo.ts';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { call, createProductProject } from './hook-helpers.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { plainPng, startProviderFakes, type ProviderFakes } from './helpers/provider-fakes.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { TEST_SCRIPT, insertUser, type InsertedUser } from './helpers/factories.ts';
import { formData } from './helpers/images.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Realistic with a catalogue actor, whose picture is a drawing: the image edit and the talking-actor provider get a
 * real-looking person instead, made once per user and actor by the images provider (OPENAI_IMAGE_MODEL, set in
 * this file only) from the actor's description and kept in the file store. Also: a Realistic video needs an actor
 * (decision 125): queueing one without, or making a draft realistic after its actor left, is refused; and a
 * placed-but-never-merged actor (a batch row) still holds its product in Realistic.
 */
const placement = { position_x: 300, position_y: 640, scale: 0.3, rotation: -8 };
/** The images provider's person: one plain colour, so the edit's actor part shows whether it was sent. */
const PHOTO_RGB = [46, 111, 158] as const;
const CATALOGUE_ID = '1';

let fakes: ProviderFakes;

beforeAll(async () => {
  const [r, g, b] = PHOTO_RGB;
  const images = openAIImagesHandler({ portrait: await plainPng({ r, g, b }), edited: await plainPng('#b08d74') });
  fakes = await startProviderFakes({
    seconds: 2.5,
    yuv420p: false,
    imageModel: true,
    // The person takes a moment to make, so two jobs that want it at once are both waiting for it.
    openai: async (req) => {
      if (req.path.endsWith('/images/generations')) await new Promise((done) => setTimeout(done, 600));
      return images(req);
    },
  });
});
afterAll(async () => {
  await fakes?.close();
});

const generations = () => fakes.openai.requests.filter((r) => r.path.endsWith('/images/generations'));
const edits = () => fakes.openai.requests.filter((r) => r.path.endsWith('/images/edits'));

/** The actor picture an image edit was given (its first image[] part), as its mean colour and spread. */
async function editedActor(req: RecordedRequest) {
  const form = await new Response(new Uint8Array(req.body), {
    headers: { 'content-type': String(req.headers['content-type']) },
  }).formData();
  const actor = form.getAll('image[]')[0] as Blob;
  const stats = await sharp(Buffer.from(await actor.arrayBuffer())).stats();
  return {
    mean: stats.channels.slice(0, 3).map((c) => Math.round(c.mean)),
    spread: Math.max(...stats.channels.slice(0, 3).map((c) => c.stdev)),
  };
}

/** Asserts the edit got the images provider's plain-colour person, not the catalogue drawing. */
async function expectPhotoSent(req: RecordedRequest) {
  const { mean, spread } = await editedActor(req);
  for (const [i, c] of PHOTO_RGB.entries()) expect(Math.abs(mean[i]! - c)).toBeLessThanOrEqual(3);
  expect(spread).toBeLessThan(3);
}

for (const dialect of TEST_DIALECTS) {
  describe(`Realistic with a catalogue actor (${dialect})`, () => {
    let server: TestServer;
    let catalogueAvatarId: number;
    const asUser = (u: InsertedUser) => ({ authHeader: u.headers });

    beforeAll(async () => {
      server = await startTestServer({ dialect });
      server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50, retryBaseMs: 100 };
      await server.ctx.jobs.start();
      const row = await server.ctx.db.kysely
        .selectFrom('avatars')
        .select('id')
        .where('catalogue_actor_id', '=', CATALOGUE_ID)
        .executeTakeFirstOrThrow();
      catalogueAvatarId = row.id;
    });
    afterAll(() => server.close());

    async function finished(u: InsertedUser, id: number): Promise<Job> {
      return waitFor(async () => {
        const j = Job.parse((await call(server, asUser(u), 'GET', `/api/jobs/${id}`)).json);
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 120_000);
    }

    /** A Realistic project with a product photo and the script; `actor`: the catalogue actor chosen. */
    async function realisticProject(u: InsertedUser, name: string, actor = true) {
      const created = await createProductProject(server, asUser(u), name);
      expect(created.status).toBe(200);
      const projectId = (created.json as { id: number }).id;
      const put = await call(server, asUser(u), 'PUT', `/api/projects/${projectId}`, {
        script: TEST_SCRIPT,
        quality: 'realistic',
      });
      expect(Project.parse(put.json)).toMatchObject({ quality: 'realistic' });
      if (actor) {
        const sel = await call(server, asUser(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
          character_ids: [catalogueAvatarId],
        });
        expect(sel.status).toBe(200);
      }
      return projectId;
    }

    const mergeForm = (projectId: number) =>
      formData([
        { name: 'project_id', value: String(projectId) },
        { name: 'character_id', value: String(catalogueAvatarId) },
        { name: 'mask_data', value: JSON.stringify(placement) },
      ]);

    it('makes the catalogue actor photoreal once for two merges, and the edits get that photo', async () => {
      const u = await insertUser(server, { credits: 5 });
      const [a, b] = [await realisticProject(u, 'Serum A'), await realisticProject(u, 'Serum B')];
      const [gensBefore, editsBefore] = [generations().length, edits().length];
      // Both merges queued at once: they run side by side and want the same person.
      const merges = await Promise.all(
        [a, b].map((p) => call(server, asUser(u), 'POST', '/api/merge/single', mergeForm(p))),
      );
      for (const m of merges) expect(m.status).toBe(200);
      const jobs = await Promise.all(merges.map((m) => finished(u, (m.json as { job_id: number }).job_id)));
      for (const j of jobs) expect(j.status).toBe('completed');

      const gens = generations().slice(gensBefore);
      expect(gens).toHaveLength(1);
      const prompt = gens[0]!.json<{ prompt: string; model: string }>();
      const actor = ACTORS.find((x) => x.id === CATALOGUE_ID)!;
      expect(prompt.model).toBe('gpt-image-1');
      expect(prompt.prompt).toContain(catalogueActorDescription(actor));
      expect(prompt.prompt).toMatch(/smartphone selfie/);
      const made = edits().slice(editsBefore);
      expect(made).toHaveLength(2);
      for (const e of made) await expectPhotoSent(e);
      // The generation is paid once, by the job that made it; each merge pays its own edit.
      const costs = jobs.map((j) => j.cost).sort((x, y) => (y?.images ?? 0) - (x?.images ?? 0));
      expect(costs).toEqual([
        { images: 2, characters: 0, seconds: 0, calls: 2 },
        { images: 1, characters: 0, seconds: 0, calls: 1 },
      ]);
      const tag = server.ctx.media.catalogueActorPhotoTag(CATALOGUE_ID);
      expect(tag).toMatch(/^[0-9a-f]{12}$/);
      expect(await server.ctx.files.exists(catalogueActorPhotoKey(u.id, CATALOGUE_ID, tag!))).toBe(true);

      // Another user pays for their own.
      const other = await insertUser(server, { credits: 5 });
      const c = await realisticProject(other, 'Serum C');
      const merge = await call(server, asUser(other), 'POST', '/api/merge/single', mergeForm(c));
      const job = await finished(other, (merge.json as { job_id: number }).job_id);
      expect(job.cost).toEqual({ images: 2, characters: 0, seconds: 0, calls: 2 });
      expect(generations().slice(gensBefore)).toHaveLength(2);
    });

    it('holds the product in a Realistic video of a placed, never merged catalogue actor (a batch row)', async () => {
      const u = await insertUser(server, { credits: 5 });
      const projectId = await realisticProject(u, 'Batch-like row');
      // What a batch row leaves: the actor placed at its hand, no merge and no cut-out yet.
      await projectsRepository.setMergeState(server.ctx.db.kysely, projectId, catalogueAvatarId, {
        status: 'not_merged',
        maskPlacement: JSON.stringify(placement),
      });
      const since = Date.now();
      const [gensBefore, editsBefore] = [generations().length, edits().length];
      const queued = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(queued.status).toBe(201);
      const video = await finished(u, (queued.json as { id: number }).id);
      expect(video).toMatchObject({ status: 'completed', render_quality: 'realistic' });
      expect(video.cost).toEqual({ images: 2, characters: TEST_SCRIPT.length, seconds: 2.5, calls: 4 });
      expect(edits().slice(editsBefore)).toHaveLength(1);
      await expectPhotoSent(edits().at(-1)!);
      // The person, then the product put in their hand, then the voice, then the talking actor.
      const order = [...fakes.openai.requests, ...fakes.eleven.requests, ...fakes.fal.requests]
        .filter((r) => r.at >= since && r.method === 'POST')
        .sort((x, y) => x.at - y.at)
        .map((r) =>
          r.path.includes('/images/')
            ? r.path
            : fakes.eleven.requests.includes(r)
              ? 'elevenlabs'
              : r.path.startsWith('/storage/')
                ? 'fal storage'
                : 'fal',
        );
      // fal gets the still and the voice through its storage first (two uploads), then the submit.
      expect(order).toEqual([
        '/v1/images/generations',
        '/v1/images/edits',
        'elevenlabs',
        'fal storage',
        'fal storage',
        'fal',
      ]);

      // The next Realistic video of the same actor reuses the person: only its edit is paid.
      const again = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      const second = await finished(u, (again.json as { id: number }).id);
      expect(second.cost).toEqual({ images: 1, characters: TEST_SCRIPT.length, seconds: 2.5, calls: 3 });
      expect(generations().length).toBe(gensBefore + 1);
    });

    it('refuses a Realistic video without an actor, holding nothing', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await realisticProject(u, 'Nobody', false);
      const res = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(res.status).toBe(422);
      expect((res.json as { detail: string }).detail).toBe(MESSAGES.realistic.needsActor);
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 0, available: 300 });
    });

    it('refuses "Make realistic" of a draft whose actor has since left the project', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await realisticProject(u, 'Actor left');
      await call(server, asUser(u), 'PUT', `/api/projects/${projectId}`, { quality: 'draft' });
      const queued = await call(server, asUser(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(queued.status).toBe(201);
      const draft = await finished(u, (queued.json as { id: number }).id);
      expect(draft).toMatchObject({ status: 'completed', render_quality: 'draft' });
      await projectsRepository.setSelectedCharacters(server.ctx.db.kysely, projectId, []);
      const res = await call(server, asUser(u), 'POST', `/api/jobs/${draft.id}/make-realistic`);
      expect(res.status).toBe(422);
      expect((res.json as { detail: string }).detail).toBe(MESSAGES.realistic.needsActor);
      expect(await ledgerBalances(server.ctx.db.kysely, u.id)).toMatchObject({ held: 0, consumed: 100 });
    });
  });
}
