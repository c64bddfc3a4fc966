import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ActorLook, Avatar, Job, LedgerPage, MOUTH_STILL_SHAPES, PRICES, Project } from '@hookreel/contracts';
import { openAIImagesHandler } from '@hookreel/engine/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineMedia, resetEngineConfig } from '../src/media/engine.ts';
import type { MouthStillFiles } from '../src/media/port.ts';
import { call, productPhoto } from './hook-helpers.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { TEST_SCRIPT, insertUser, type InsertedUser } from './helpers/factories.ts';
import { formData, portraitImage, projectForm } from './helpers/images.ts';
import { startProviderFakes, type ProviderFakes } from './helpers/provider-fakes.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * An actor's once-per-user upgrades (decision 216), against the providers' fakes: a catalogue actor made photoreal
 * once (one image, charged once) and then rendered in Draft offline with that still; real mouth stills made once
 * from the actor's photo and handed to every later Draft render. Another user's view of either is 404.
 */
const CATALOGUE_ID = '2';
let fakes: ProviderFakes;

beforeAll(async () => {
  // The images provider's "person" is a real face photo, so the face check finds a face on the still; the edits
  // answer the same picture, so the mouth stills line up with it as a real edit's do.
  const face = await sharp(await portraitImage())
    .resize(576, 1024, { fit: 'cover', position: 'attention' })
    .png()
    .toBuffer();
  fakes = await startProviderFakes({
    seconds: 2,
    imageModel: true,
    openai: openAIImagesHandler({ portrait: face, edited: face }),
  });
}, 60_000);
afterAll(async () => {
  await fakes?.close();
});

const generations = () => fakes.openai.requests.filter((r) => r.path.endsWith('/images/generations'));
const edits = () => fakes.openai.requests.filter((r) => r.path.endsWith('/images/edits'));

for (const dialect of TEST_DIALECTS) {
  describe(`photoreal catalogue actors and real mouths (${dialect})`, () => {
    let server: TestServer;
    let catalogueAvatarId: number;
    const as = (u: InsertedUser) => ({ authHeader: u.headers });
    /** What each recorded render was handed, checked while its work files still exist. */
    const handed = new Map<number, { actor: NonNullable<unknown>; mouths: Record<string, [number, number]> }>();
    const recorder = recordingEngine();
    recorder.during = async (input) => {
      const mouths: Record<string, [number, number]> = {};
      for (const [shape, file] of Object.entries((input.actor?.mouthStills ?? {}) as MouthStillFiles)) {
        if (!file || !(await stat(file)).isFile()) continue;
        const m = await sharp(file).metadata();
        mouths[shape] = [m.width ?? 0, m.height ?? 0];
      }
      handed.set(input.jobId, { actor: input.actor ?? {}, mouths });
    };

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
    }, 60_000);
    afterAll(() => server?.close());

    async function finished(u: InsertedUser, id: number): Promise<Job> {
      return waitFor(async () => {
        const j = Job.parse((await call(server, as(u), 'GET', `/api/jobs/${id}`)).json);
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 180_000);
    }

    const look = async (u: InsertedUser, avatarId = catalogueAvatarId) => {
      const res = await call(server, as(u), 'GET', `/api/avatars/${avatarId}/look`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return ActorLook.parse(res.json);
    };

    /** A Draft project with a product photo, the script and the catalogue actor chosen. */
    async function draftProject(u: InsertedUser, name: string) {
      const created = await call(server, as(u), 'POST', '/api/projects/', projectForm(name, await productPhoto()));
      const projectId = (created.json as { id: number }).id;
      const put = await call(server, as(u), 'PUT', `/api/projects/${projectId}`, { script: TEST_SCRIPT });
      expect(Project.parse(put.json)).toMatchObject({ quality: 'draft' });
      const sel = await call(server, as(u), 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [catalogueAvatarId],
      });
      expect(sel.status).toBe(200);
      return projectId;
    }

    async function renderDraft(u: InsertedUser, projectId: number): Promise<Job> {
      const queued = await call(server, as(u), 'POST', `/api/jobs/${projectId}/queue`);
      expect(queued.status, JSON.stringify(queued.json)).toBe(201);
      return finished(u, (queued.json as { id: number }).id);
    }

    /** Every capture in the user's ledger (the credits actually charged), newest first. */
    async function captures(u: InsertedUser) {
      const page = LedgerPage.parse((await call(server, as(u), 'GET', '/api/credits/ledger')).json);
      return page.entries.filter((e) => e.kind === 'capture');
    }

    it('makes a catalogue actor photoreal once: one image charged, then three Draft renders at Draft price', async () => {
      const u = await insertUser(server, { credits: 10 });
      const before = await look(u);
      expect(before.photoreal).toEqual({
        available: true,
        reason: null,
        made: false,
        price: PRICES.photorealActor,
        job_id: null,
      });
      // Mouths need a photo first.
      expect(before.mouth_stills).toMatchObject({ available: false, made: false });
      const gensBefore = generations().length;

      const asked = await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/photoreal`);
      expect(asked.status, JSON.stringify(asked.json)).toBe(200);
      const jobId = ActorLook.parse(asked.json).photoreal.job_id;
      expect(jobId).not.toBeNull();
      // Asked again while it is being made: the same job, nothing more held.
      const again = await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/photoreal`);
      expect(ActorLook.parse(again.json).photoreal.job_id === jobId || ActorLook.parse(again.json).photoreal.made).toBe(
        true,
      );
      const made = await finished(u, jobId!);
      expect(made.status, made.error ?? '').toBe('completed');
      const after = await look(u);
      expect(after.photoreal).toMatchObject({ made: true, job_id: null });
      expect(after.photo_url).toMatch(/^users\/\d+\/actors\/catalogue-2-photoreal-[0-9a-f]{12}\.png$/);
      // Once made, asking again queues and charges nothing.
      expect(
        ActorLook.parse((await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/photoreal`)).json),
      ).toMatchObject({ photoreal: { made: true, job_id: null } });
      expect(generations().length - gensBefore).toBe(1);

      // The card says Photo now, and shows the still; so does the actor in the user's projects.
      const cards = (await call(server, as(u), 'GET', '/api/avatars')).json as unknown[];
      const card = cards.map((c) => Avatar.parse(c)).find((c) => c.id === catalogueAvatarId)!;
      expect(card).toMatchObject({ kind: 'photo', photoreal: true, catalogue: true, url: after.photo_url });
      // Nobody else's card changes.
      const other = await insertUser(server, { credits: 1 });
      const theirs = ((await call(server, as(other), 'GET', '/api/avatars')).json as unknown[])
        .map((c) => Avatar.parse(c))
        .find((c) => c.id === catalogueAvatarId)!;
      expect(theirs).toMatchObject({ kind: 'illustrated', photoreal: false });

      // Three Draft renders: the first through the real engine, two recorded; no provider is called.
      const projectId = await draftProject(u, 'Photoreal Draft');
      const project = Project.parse((await call(server, as(u), 'GET', `/api/projects/${projectId}`)).json);
      expect(project.characters[0]).toMatchObject({ photoreal: true, url: after.photo_url, catalogue: true });
      const requestsBefore = fakes.openai.requests.length + fakes.fal.requests.length + fakes.eleven.requests.length;
      const real = await renderDraft(u, projectId);
      expect(real).toMatchObject({ status: 'completed', render_quality: 'draft' });
      server.ctx.media = recorder;
      try {
        for (let i = 0; i < 2; i++) {
          const j = await renderDraft(u, projectId);
          expect(j.status).toBe('completed');
          const actor = handed.get(j.id)!.actor as { face: unknown; realPerson: boolean; rig?: unknown };
          // The still talks as a photo (its face found once), not the drawn rig; it is not a real person.
          expect(actor.face).toBeTruthy();
          expect(actor.rig ?? null).toBeNull();
          expect(actor.realPerson).toBe(false);
        }
      } finally {
        server.ctx.media = engineMedia;
      }
      expect(fakes.openai.requests.length + fakes.fal.requests.length + fakes.eleven.requests.length).toBe(
        requestsBefore,
      );
      // The ledger: one image, three Draft videos.
      const charged = (await captures(u)).map((e) => e.amount).sort();
      expect(charged).toEqual([PRICES.photorealActor, PRICES.video, PRICES.video, PRICES.video].sort());

      // Product in hand (Draft) lays the product on that still, as the videos show it, not on the drawing.
      const merge = await call(
        server,
        as(u),
        'POST',
        '/api/merge/single',
        formData([
          { name: 'project_id', value: String(projectId) },
          { name: 'character_id', value: String(catalogueAvatarId) },
          { name: 'mask_data', value: JSON.stringify({ position_x: 300, position_y: 800, scale: 0.2, rotation: 0 }) },
        ]),
      );
      expect(merge.status, JSON.stringify(merge.json)).toBe(200);
      expect((await finished(u, (merge.json as { job_id: number }).job_id)).status).toBe('completed');
      const merged = (
        (await call(server, as(u), 'GET', `/api/merge/avatars-with-status/${projectId}`)).json as Array<{
          avatar_id: number;
          merged_url: string | null;
        }>
      ).find((a) => a.avatar_id === catalogueAvatarId)!.merged_url!;
      const pixel = async (key: string) => {
        const local = path.join(tmpdir(), `looks-${u.id}-${path.basename(key)}`);
        await server.ctx.files.toLocalFile(key.replace(/^static\//, ''), local);
        const { data } = await sharp(local).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        return [...data.subarray((40 * 576 + 40) * 3, (40 * 576 + 40) * 3 + 3)];
      };
      expect(await pixel(merged)).toEqual(await pixel(after.photo_url!));
    }, 600_000);

    it('makes real mouth stills once from the photoreal still and hands them to later Draft renders', async () => {
      const u = await insertUser(server, { credits: 10 });
      // Without an image-edit provider nothing can be asked.
      delete process.env.OPENAI_EDIT_MODEL;
      resetEngineConfig();
      try {
        expect((await look(u)).mouth_stills).toMatchObject({ available: false });
        const refused = await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/mouth-stills`);
        expect(refused.status).toBe(422);
      } finally {
        fakes.pointEngineAt();
      }
      // Not photoreal yet for this user: refused with the reason, nothing charged.
      const early = await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/mouth-stills`);
      expect(early.status).toBe(422);
      const photo = await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/photoreal`);
      expect((await finished(u, ActorLook.parse(photo.json).photoreal.job_id!)).status).toBe('completed');

      const priced = await look(u);
      expect(priced.mouth_stills).toMatchObject({
        available: true,
        made: false,
        price: PRICES.mouthStill * MOUTH_STILL_SHAPES.length,
      });
      const editsBefore = edits().length;
      const asked = await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/mouth-stills`);
      expect(asked.status, JSON.stringify(asked.json)).toBe(200);
      const job = await finished(u, ActorLook.parse(asked.json).mouth_stills.job_id!);
      expect(job.status, job.error ?? '').toBe('completed');
      expect(edits().length - editsBefore).toBe(MOUTH_STILL_SHAPES.length);
      expect((await look(u)).mouth_stills).toMatchObject({ made: true, job_id: null });
      // Once made: asked again, nothing new.
      await call(server, as(u), 'POST', `/api/avatars/${catalogueAvatarId}/mouth-stills`);
      expect(edits().length - editsBefore).toBe(MOUTH_STILL_SHAPES.length);

      const projectId = await draftProject(u, 'Real mouths');
      server.ctx.media = recorder;
      try {
        const j = await renderDraft(u, projectId);
        expect(j.status).toBe('completed');
        const { mouths } = handed.get(j.id)!;
        expect(Object.keys(mouths).sort()).toEqual([...MOUTH_STILL_SHAPES].sort());
        // Each still is the photo's size, so the face points found on it hold.
        for (const size of Object.values(mouths)) expect(size).toEqual([576, 1024]);
      } finally {
        server.ctx.media = engineMedia;
      }
      // And one real render with them.
      const real = await renderDraft(u, projectId);
      expect(real).toMatchObject({ status: 'completed', render_quality: 'draft' });
      const charged = (await captures(u)).map((e) => e.amount).sort();
      expect(charged).toEqual(
        [PRICES.photorealActor, PRICES.mouthStill * MOUTH_STILL_SHAPES.length, PRICES.video, PRICES.video].sort(),
      );
    }, 600_000);

    it("gives an own creator real mouths, carried into a merge's frame; 404 for anyone else, 422 for photoreal", async () => {
      const owner = await insertUser(server, { credits: 5 });
      const created = await call(
        server,
        as(owner),
        'POST',
        '/api/creators',
        formData([
          { name: 'name', value: 'Maya' },
          { name: 'consent', value: 'true' },
          { name: 'photo', file: await portraitImage(), filename: 'maya.png', type: 'image/png' },
        ]),
      );
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const creatorId = (created.json as { id: number }).id;
      const mine = await look(owner, creatorId);
      expect(mine.photoreal).toMatchObject({ available: false, made: false });
      expect(mine.mouth_stills).toMatchObject({ available: true, made: false });
      expect((await call(server, as(owner), 'POST', `/api/avatars/${creatorId}/photoreal`)).status).toBe(422);

      // Real mouths for the creator, from their own upload; a Draft merge of them (the photo fitted into the frame,
      // the product on it) gets the stills carried into the same frame as the face points.
      const asked = await call(server, as(owner), 'POST', `/api/avatars/${creatorId}/mouth-stills`);
      expect(asked.status, JSON.stringify(asked.json)).toBe(200);
      const made = await finished(owner, ActorLook.parse(asked.json).mouth_stills.job_id!);
      expect(made.status, made.error ?? '').toBe('completed');
      // Their card says so, on the creator routes and in the actor list.
      expect((await call(server, as(owner), 'GET', `/api/creators/${creatorId}`)).json).toMatchObject({
        mouth_stills: true,
      });
      const projectId = (
        (await call(server, as(owner), 'POST', '/api/projects/', projectForm('Creator mouths', await productPhoto())))
          .json as { id: number }
      ).id;
      await call(server, as(owner), 'PUT', `/api/projects/${projectId}`, { script: TEST_SCRIPT });
      await call(server, as(owner), 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [creatorId],
      });
      const merge = await call(
        server,
        as(owner),
        'POST',
        '/api/merge/single',
        formData([
          { name: 'project_id', value: String(projectId) },
          { name: 'character_id', value: String(creatorId) },
          { name: 'mask_data', value: JSON.stringify({ position_x: 300, position_y: 700, scale: 0.3, rotation: 0 }) },
        ]),
      );
      expect(merge.status, JSON.stringify(merge.json)).toBe(200);
      expect((await finished(owner, (merge.json as { job_id: number }).job_id)).status).toBe('completed');
      server.ctx.media = recorder;
      try {
        const j = await renderDraft(owner, projectId);
        expect(j.status).toBe('completed');
        const { actor, mouths } = handed.get(j.id)! as { actor: { faceSourcePath?: string }; mouths: object };
        expect(actor.faceSourcePath).toBeTruthy();
        expect(Object.keys(mouths).sort()).toEqual([...MOUTH_STILL_SHAPES].sort());
      } finally {
        server.ctx.media = engineMedia;
      }

      const stranger = await insertUser(server, { credits: 5 });
      for (const [method, path] of [
        ['GET', `/api/avatars/${creatorId}/look`],
        ['POST', `/api/avatars/${creatorId}/photoreal`],
        ['POST', `/api/avatars/${creatorId}/mouth-stills`],
      ] as const) {
        expect((await call(server, as(stranger), method, path)).status, `${method} ${path}`).toBe(404);
      }
      expect(await captures(stranger)).toEqual([]);
    }, 300_000);
  });
}
