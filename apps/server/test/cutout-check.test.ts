import { MESSAGES } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { formData, projectForm } from './helpers/images.ts';
import { availableCredits, call, packWithCharacters, productForm, productPhoto, waitFor } from './hook-helpers.ts';

/**
 * A brand's cut-out PNG done badly: the bottle runs off the photo's bottom edge and a large patch of the old
 * backdrop was left beside it. Its own alpha is the matte (no model run), and the check asks for a look.
 */
async function badCutoutPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect x="170" y="180" width="140" height="460" rx="30" fill="#d62d2d"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="10" y="20" width="120" height="200" fill="#d8d2c8"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * The product cut-out's check over HTTP (decision 214): the analysis stores its verdict with the pack, a
 * needs-review cut-out stops the paid steps that use it (409) until the owner accepts it, and a new upload
 * clears both.
 */
describe.each(TEST_DIALECTS)('hook packs: the product cut-out check (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 100, retryBaseMs: 200, retryMaxMs: 1000 };
    await server.ctx.jobs.start();
  });
  afterAll(() => server.close());

  async function analysed(user: TestUser, image: Buffer) {
    const pack = (await call(server, user, 'POST', '/api/hooks', { language: 'english', accent: 'american' })).json;
    expect((await call(server, user, 'POST', '/api/hooks/upload-product', productForm(pack.id, image))).status).toBe(
      200,
    );
    const step1 = await call(server, user, 'POST', `/api/hooks/process-step1?hook_pack_id=${pack.id}`);
    await waitFor(
      async () => {
        const j = await call(server, user, 'GET', `/api/jobs/${step1.json.job_id}`);
        if (j.json?.status === 'failed') expect.fail(`analysis failed: ${j.json.error}`);
        return j.json?.status === 'completed';
      },
      60_000,
      'the analysis',
    );
    return (await call(server, user, 'GET', `/api/hooks/${pack.id}`)).json;
  }

  it('stores needs-review with its reasons, refuses previews and videos until accepted, and records the acceptance', async () => {
    const user = await registerUser(server);
    const pack = await analysed(user, await badCutoutPhoto());
    expect(pack.cutout_check).toMatchObject({ verdict: 'needs-review', accepted: false });
    expect(pack.cutout_check.reasons.join(' ')).toMatch(/photo's edge/);
    expect(pack.cutout_check.cutout_url).toMatch(new RegExp(`^users/${user.id}/.+-cutout\\.png$`));
    const cutout = await fetch(`${server.url}/api/static/${pack.cutout_check.cutout_url}`);
    expect(cutout.status).toBe(200);
    expect((await sharp(Buffer.from(await cutout.arrayBuffer())).metadata()).hasAlpha).toBe(true);

    const preview = await call(server, user, 'POST', '/api/hooks/generate-preview', {
      hook_pack_id: pack.id,
      character_ids: [1],
    });
    expect(preview.status).toBe(409);
    expect(preview.json.detail).toBe(MESSAGES.hookPacks.cutoutNeedsReview);
    const videos = await call(server, user, 'POST', `/api/jobs/hook-pack/${pack.id}/queue-videos`, {
      variants: [{ index: 1, generated_character_id: 1, hook_text: 'Glow all day' }],
    });
    expect(videos.status).toBe(409);
    expect(videos.json.detail).toBe(MESSAGES.hookPacks.cutoutNeedsReview);

    const other = await registerUser(server);
    expect((await call(server, other, 'POST', `/api/hooks/${pack.id}/accept-cutout`)).status).toBe(404);

    const accepted = await call(server, user, 'POST', `/api/hooks/${pack.id}/accept-cutout`);
    expect(accepted.status).toBe(200);
    expect(accepted.json.cutout_check).toMatchObject({ verdict: 'needs-review', accepted: true });
    const row = await server.ctx.db.kysely
      .selectFrom('hook_packs')
      .select('cutout_accepted_at')
      .where('id', '=', pack.id)
      .executeTakeFirstOrThrow();
    expect(row.cutout_accepted_at).toBeTruthy();
    // Past the cut-out rule: what stops this request now is something else (no such character).
    const after = await call(server, user, 'POST', '/api/hooks/generate-preview', {
      hook_pack_id: pack.id,
      character_ids: [1],
    });
    expect(after.json?.detail).not.toBe(MESSAGES.hookPacks.cutoutNeedsReview);

    // A new photo is a new cut-out: the check and the acceptance go with the old one.
    await call(server, user, 'POST', '/api/hooks/upload-product', productForm(pack.id, await productPhoto()));
    expect((await call(server, user, 'GET', `/api/hooks/${pack.id}`)).json.cutout_check).toBeNull();
  });

  it('fails previews queued before the analysis once the cut-out needs review, and takes nothing for them', async () => {
    const user = await registerUser(server);
    const { id, characters } = await packWithCharacters(server, user, { name: 'Unchecked', count: 1 });
    await call(server, user, 'POST', '/api/hooks/upload-product', productForm(id, await badCutoutPhoto()));
    await waitFor(
      async () =>
        (await call(server, user, 'GET', `/api/hooks/${id}`)).json.generated_characters.every(
          (c: { url: string }) => c.url,
        ),
      60_000,
      'the characters',
    );
    const credits = await availableCredits(server, user.id);
    const previews = await call(server, user, 'POST', '/api/hooks/generate-preview', {
      hook_pack_id: id,
      character_ids: characters,
    });
    expect(previews.status).toBe(200);
    const failed = await waitFor(
      async () => {
        const shown = (await call(server, user, 'GET', `/api/hooks/${id}`)).json.preview_characters;
        return shown.every((p: { errors: string | null }) => p.errors) ? shown : null;
      },
      60_000,
      'the previews to fail',
    );
    expect(failed[0].errors).toBe(MESSAGES.hookPacks.previewImagesFailed);
    expect(await availableCredits(server, user.id)).toBe(credits);
    expect((await call(server, user, 'GET', `/api/hooks/${id}`)).json.cutout_check.verdict).toBe('needs-review');
  });

  it('calls a clean cut-out clean, with nothing to accept', async () => {
    const user = await registerUser(server);
    const pack = await analysed(user, await productPhoto({ transparent: true }));
    expect(pack.cutout_check).toMatchObject({ verdict: 'clean', fixed: [], reasons: [], accepted: false });
    const accept = await call(server, user, 'POST', `/api/hooks/${pack.id}/accept-cutout`);
    expect(accept.status).toBe(409);
    expect(accept.json.detail).toBe(MESSAGES.hookPacks.cutoutNothingToAccept);
  });
});

/**
 * Product in hand (decision 214): the free check-cutout job stores the check with the project, and a merge (paid)
 * of a needs-review cut-out answers 409 until the owner accepts it; a merge queued without the check fails for
 * good once the cut-out turns out to need review, which releases its hold.
 */
describe.each(TEST_DIALECTS)('product in hand: the cut-out check before a merge (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { JOB_POLL_MS: '100' } });
    await server.ctx.jobs.start();
  });
  afterAll(() => server.close());

  const placement = { position_x: 300, position_y: 640, scale: 0.3, rotation: -8 };
  const mergeForm = (projectId: number, avatarId: number) =>
    formData([
      { name: 'project_id', value: String(projectId) },
      { name: 'character_id', value: String(avatarId) },
      { name: 'mask_data', value: JSON.stringify(placement) },
    ]);
  const jobEnd = (user: TestUser, id: number) =>
    waitFor(
      async () => {
        const j = (await call(server, user, 'GET', `/api/jobs/${id}`)).json;
        return j?.status === 'completed' || j?.status === 'failed' ? j : null;
      },
      60_000,
      `job ${id}`,
    );
  async function project(user: TestUser, image: Buffer) {
    const created = await call(server, user, 'POST', '/api/projects/', projectForm('Serum', image, 'serum.png'));
    expect(created.status).toBe(200);
    const actors = (await call(server, user, 'GET', `/api/avatars/?project_id=${created.json.id}`)).json;
    return { id: created.json.id as number, actorId: actors[0].id as number };
  }

  it('checks for free, refuses the merge while the cut-out needs review, and merges once it is accepted', async () => {
    const user = await registerUser(server);
    const { id, actorId } = await project(user, await badCutoutPhoto());
    expect((await call(server, user, 'GET', `/api/projects/${id}`)).json.cutout_check).toBeNull();
    const credits = await availableCredits(server, user.id);

    const check = await call(server, user, 'POST', `/api/merge/cutout-check/${id}`);
    expect(check.status).toBe(200);
    expect((await jobEnd(user, check.json.job_id)).status).toBe('completed');
    const checked = (await call(server, user, 'GET', `/api/projects/${id}`)).json;
    expect(checked.cutout_check).toMatchObject({ verdict: 'needs-review', accepted: false });
    expect(checked.cutout_check.cutout_url).toMatch(new RegExp(`^users/${user.id}/projects/${id}-.+-cutout\\.png$`));
    expect(await availableCredits(server, user.id)).toBe(credits);

    const refused = await call(server, user, 'POST', '/api/merge/single', mergeForm(id, actorId));
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(MESSAGES.hookPacks.cutoutNeedsReview);
    expect(await availableCredits(server, user.id)).toBe(credits);

    const other = await registerUser(server);
    expect((await call(server, other, 'POST', `/api/merge/accept-cutout/${id}`)).status).toBe(404);
    const accepted = await call(server, user, 'POST', `/api/merge/accept-cutout/${id}`);
    expect(accepted.status).toBe(200);
    expect(accepted.json.cutout_check).toMatchObject({ verdict: 'needs-review', accepted: true });

    const merge = await call(server, user, 'POST', '/api/merge/single', mergeForm(id, actorId));
    expect(merge.status).toBe(200);
    expect((await jobEnd(user, merge.json.job_id)).status).toBe('completed');
  });

  it('fails a merge queued before the check once its cut-out needs review, and takes nothing for it', async () => {
    const user = await registerUser(server);
    const { id, actorId } = await project(user, await badCutoutPhoto());
    const credits = await availableCredits(server, user.id);
    const merge = await call(server, user, 'POST', '/api/merge/single', mergeForm(id, actorId));
    expect(merge.status).toBe(200);
    const job = await jobEnd(user, merge.json.job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe(MESSAGES.hookPacks.cutoutNeedsReview);
    expect(await availableCredits(server, user.id)).toBe(credits);
    expect((await call(server, user, 'GET', `/api/projects/${id}`)).json.cutout_check.verdict).toBe('needs-review');
  });

  it('calls a clean product clean, with nothing to accept', async () => {
    const user = await registerUser(server);
    const { id } = await project(user, await productPhoto({ transparent: true }));
    const check = await call(server, user, 'POST', `/api/merge/cutout-check/${id}`);
    expect((await jobEnd(user, check.json.job_id)).status).toBe('completed');
    expect((await call(server, user, 'GET', `/api/projects/${id}`)).json.cutout_check).toMatchObject({
      verdict: 'clean',
      accepted: false,
    });
    const accept = await call(server, user, 'POST', `/api/merge/accept-cutout/${id}`);
    expect(accept.status).toBe(409);
    expect(accept.json.detail).toBe(MESSAGES.hookPacks.cutoutNothingToAccept);
  });
});
