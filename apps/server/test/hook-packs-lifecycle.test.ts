import { LIMITS } from '@hookreel/contracts';
import { asciiSlug } from '../src/services/video/file-names.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser } from './helpers/factories.ts';
import { call, productForm, productPhoto, waitFor, zipEntryNames } from './hook-helpers.ts';

/**
 * The whole pack as a new user, over HTTP, with the real job runner and the real engine pipeline (a short hook
 * keeps the renders short): create → upload → analyse → types → characters → select → previews → approve →
 * 12 videos → download.
 */
describe('hook pack lifecycle (sqlite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 100, retryBaseMs: 200, retryMaxMs: 1000 };
    await server.ctx.jobs.start();
  });
  afterAll(() => server.close());

  it('goes from an empty pack to a zip of 12 captioned videos', { timeout: 420_000 }, async () => {
    const user = await registerUser(server);
    // 12 videos cost more than the free grant.
    await server.ctx.db.kysely.transaction().execute((trx) => grantCredits(trx, user.id, 2000, 'test top-up'));
    const jobDone = (id: number) =>
      waitFor(
        async () => {
          const j = await call(server, user, 'GET', `/api/jobs/${id}`);
          if (j.json?.status === 'failed') expect.fail(`job ${id} failed: ${j.json.error}`);
          return j.json?.status === 'completed' ? j.json : null;
        },
        120_000,
        `job ${id}`,
      );

    const created = await call(server, user, 'POST', '/api/hooks', {
      name: 'Glow Serum',
      language: 'english',
      accent: 'american',
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ status: 'created', character_types: [], generated_characters: [] });
    const id = created.json.id as number;

    const upload = await call(server, user, 'POST', '/api/hooks/upload-product', productForm(id, await productPhoto()));
    expect(upload.status).toBe(200);
    expect(upload.json.product_url).toMatch(new RegExp(`^users/${user.id}/hook-packs/.+\\.png$`));
    const product = await fetch(`${server.url}/api/static/${upload.json.product_url}`);
    expect(product.status).toBe(200);
    await product.arrayBuffer();

    const step1 = await call(server, user, 'POST', `/api/hooks/process-step1?hook_pack_id=${id}`);
    expect(step1.status).toBe(200);
    await jobDone(step1.json.job_id);
    const analysed = (await call(server, user, 'GET', `/api/hooks/${id}`)).json;
    expect(analysed.status).toBe('product_uploaded');
    expect(analysed.detected_shape).toBeTruthy();
    expect(analysed.detected_category).toBeTruthy();

    expect(
      (
        await call(server, user, 'PUT', `/api/hooks/${id}`, {
          message: 'Glow all day',
          product_details: 'Glow Serum, vitamin C',
        })
      ).status,
    ).toBe(200);
    const types = await call(server, user, 'POST', `/api/hooks/character-types/batch?hook_pack_id=${id}`, [
      { description: 'young woman runner', order_index: 0 },
    ]);
    expect(types.status).toBe(200);

    const gen = await call(
      server,
      user,
      'POST',
      `/api/hooks/generate-characters?hook_pack_id=${id}&count=${LIMITS.charactersPerType}`,
    );
    expect(gen.status).toBe(200);
    expect(gen.json.characters).toHaveLength(4);
    await jobDone(gen.json.job_id);
    const characters = await waitFor(
      async () => {
        const list = (await call(server, user, 'GET', `/api/hooks/characters/${id}`)).json;
        return list.every((c: { url: string }) => c.url) ? list : null;
      },
      30_000,
      'character portraits',
    );
    const portrait = await fetch(`${server.url}/api/static/${characters[0].url}`);
    expect(portrait.headers.get('content-type')).toBe('image/png');
    await portrait.arrayBuffer();

    for (const c of characters.slice(0, 2)) {
      expect(
        (await call(server, user, 'POST', `/api/hooks/select-character/${c.id}?selected=true`)).json.selected,
      ).toBe(true);
    }
    const selected = (await call(server, user, 'GET', `/api/hooks/characters/${id}?selected=true`)).json;
    expect(selected).toHaveLength(2);

    const previews = await call(server, user, 'POST', '/api/hooks/generate-preview', {
      hook_pack_id: id,
      character_ids: selected.map((c: { id: number }) => c.id),
    });
    expect(previews.status).toBe(200);
    expect(previews.json).toHaveLength(2);
    const ready = await waitFor(
      async () => {
        const pack = (await call(server, user, 'GET', `/api/hooks/${id}`)).json;
        const pv = pack.preview_characters;
        if (pv.some((p: { errors: string | null }) => p.errors)) expect.fail(`preview failed: ${JSON.stringify(pv)}`);
        return pv.length === 2 && pv.every((p: { url: string | null }) => p.url) ? pv : null;
      },
      60_000,
      'previews',
    );

    const approve = await call(server, user, 'PUT', `/api/hooks/preview/${ready[0].id}`, { approved: true });
    expect(approve.json).toMatchObject({ approved: true, status: 'accepted' });
    const unapprove = await call(server, user, 'PUT', `/api/hooks/preview/${ready[1].id}`, { approved: false });
    expect(unapprove.json).toMatchObject({ approved: false, status: 'rejected' });

    const queued = await call(server, user, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`);
    expect(queued.status).toBe(200);
    expect(queued.json).toEqual({ hook_pack_id: id, total_jobs: LIMITS.videosPerHookPack });
    expect((await call(server, user, 'GET', `/api/hooks/${id}`)).json.status).toBe('generating_videos');

    const jobs = await waitFor(
      async () => {
        const list = (await call(server, user, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).json;
        const failed = list.find((j: { status: string }) => j.status === 'failed');
        if (failed) expect.fail(`video job failed: ${failed.error}`);
        return list.every((j: { status: string }) => j.status === 'completed') ? list : null;
      },
      360_000,
      'the 12 videos',
    );
    expect(jobs.map((j: { variant_index: number }) => j.variant_index)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(jobs.every((j: { video_url: string; hook_pack_id: number }) => j.video_url && j.hook_pack_id === id)).toBe(
      true,
    );
    expect((await call(server, user, 'GET', `/api/hooks/${id}`)).json.status).toBe('videos_ready');

    const zip = await call(server, user, 'GET', `/api/hooks/${id}/download`);
    expect(zip.status).toBe(200);
    expect(zip.res.headers.get('content-type')).toBe('application/zip');
    const names = zipEntryNames(Buffer.from(await zip.res.arrayBuffer()));
    // Files are named <pack>-<video>-<cell>-<actor>, the actor numbered as the wizard numbers it (one approved: 1),
    // the cell naming hook, actor and call to action (the 12-video pack: one hook per video, the pack's CTA).
    const packSlug = asciiSlug((await call(server, user, 'GET', `/api/hooks/${id}`)).json.name ?? 'Untitled Hook Pack');
    for (let n = 1; n <= 12; n++) {
      const base = `${packSlug}-video-${String(n).padStart(2, '0')}-h${n}-a1-c1-character-1`;
      expect(names).toContain(`${base}.mp4`);
      expect(names).toContain(`${base}.srt`);
      expect(names).toContain(`${base}.vtt`);
      const job = jobs[n - 1];
      expect(job).toMatchObject({ actor_name: 'Character 1', variant_label: `Video #${n}`, variant_id: `H${n}-A1-C1` });
      expect(job.hook_text).toBeTruthy();
      expect(job.download_url).toBe(`${job.video_url}?download=${base}.mp4`);
    }
    const file = await fetch(`${server.url}/api/${jobs[0].download_url}`);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${packSlug}-video-01-h1-a1-c1-character-1.mp4"`,
    );
    expect(names).toContain('manifest.csv');
    expect(names).toHaveLength(37);
  });
});
