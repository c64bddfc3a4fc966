import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { INSUFFICIENT_CREDITS, MATRIX_LIMITS, MATRIX_MESSAGES, PRICES } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import {
  availableCredits,
  call,
  drainCredits,
  fakeApprovedPreview,
  packWithCharacters,
  waitFor,
  zipEntry,
  zipEntryNames,
} from './hook-helpers.ts';

/**
 * The hook matrix over HTTP (docs/product.md#hook-matrix): hooks × actors × calls to action, limits enforced by
 * the server, the price held per chosen cell, each video named by its cell, and a manifest that joins back.
 */
describe.each(TEST_DIALECTS)('hook matrix (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
  });
  afterAll(() => server.close());

  /** A pack with two approved actors (no product photo, so renders skip the cut-out) and credits to spend. */
  async function matrixPack(user: TestUser, credits = 5000) {
    await server.ctx.db.kysely.transaction().execute((trx) => grantCredits(trx, user.id, credits, 'test top-up'));
    const { id, characters } = await packWithCharacters(server, user, { name: 'Matrix', count: 2 });
    await server.ctx.db.kysely.updateTable('hook_packs').set({ product_key: null }).where('id', '=', id).execute();
    for (const c of characters) await fakeApprovedPreview(server, id, c);
    return { id, characters };
  }
  const queue = (user: TestUser, id: number, matrix: unknown) =>
    call(server, user, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`, { matrix });

  it('refuses matrices over the limits or outside the pack, with clear errors and nothing spent', async () => {
    const user = await registerUser(server);
    const { id, characters } = await matrixPack(user);
    const notApproved = (await packWithCharacters(server, user, { name: 'Other', count: 1 })).characters[0];
    const before = await availableCredits(server, user.id);
    const hooks = (n: number) => Array.from({ length: n }, (_, i) => `Hook number ${i + 1}`);
    const base = { hooks: ['Glow all day'], character_ids: [characters[0]], ctas: ['Shop now'] };

    const tooManyHooks = await queue(user, id, { ...base, hooks: hooks(MATRIX_LIMITS.hooksMax + 1) });
    expect(tooManyHooks.status).toBe(422);
    expect(tooManyHooks.json.detail).toContain(MATRIX_MESSAGES.tooManyHooks);
    const ctas = Array.from({ length: MATRIX_LIMITS.ctasMax + 1 }, (_, i) => `Shop ${i}`);
    const tooManyCtas = await queue(user, id, { ...base, ctas });
    expect(tooManyCtas.status).toBe(422);
    expect(tooManyCtas.json.detail).toContain(MATRIX_MESSAGES.tooManyCtas);

    const foreign = await queue(user, id, { ...base, character_ids: [notApproved] });
    expect(foreign).toMatchObject({ status: 422, json: { detail: MATRIX_MESSAGES.actorNotApproved } });
    const dupHook = await queue(user, id, { ...base, hooks: ['Glow all day', 'glow all day'] });
    expect(dupHook).toMatchObject({ status: 422, json: { detail: MATRIX_MESSAGES.duplicateHook } });
    const outside = await queue(user, id, { ...base, cells: [{ hook: 1, actor: 0, cta: 0 }] });
    expect(outside).toMatchObject({ status: 422, json: { detail: MATRIX_MESSAGES.cellOutside } });
    const both = await call(server, user, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`, {
      matrix: base,
      variants: [{ index: 1, generated_character_id: characters[0], hook_text: 'Hi' }],
    });
    expect(both).toMatchObject({ status: 422, json: { detail: MATRIX_MESSAGES.bothForms } });

    const stranger = await registerUser(server);
    expect((await queue(stranger, id, base)).status).toBe(404);
    expect(await availableCredits(server, user.id)).toBe(before);
    const jobs = await call(server, user, 'GET', `/api/jobs/hook-pack/${id}/jobs`);
    expect(jobs.json).toEqual([]);
  });

  it('holds the price of the ticked cells only and names each video by its cell', async () => {
    const user = await registerUser(server);
    const { id, characters } = await matrixPack(user);
    const before = await availableCredits(server, user.id);
    // 2 hooks × 2 actors × 1 CTA, with hook 2 × actor 1 unticked: 3 videos.
    const matrix = {
      hooks: ['Glow all day', 'My skin has never looked better'],
      character_ids: [characters[1], characters[0]],
      ctas: ['Shop now'],
      cells: [
        { hook: 0, actor: 0, cta: 0 },
        { hook: 0, actor: 1, cta: 0 },
        { hook: 1, actor: 1, cta: 0 },
      ],
    };
    const queued = await queue(user, id, matrix);
    expect(queued.status).toBe(200);
    expect(queued.json).toEqual({ hook_pack_id: id, total_jobs: 3 });
    expect(before - (await availableCredits(server, user.id))).toBe(Math.round(3 * PRICES.video * 100));

    const jobs = (await call(server, user, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).json;
    // Actors are numbered by their place among the approved characters, whatever order the matrix lists them in.
    expect(
      jobs.map((j: { variant_id: string; actor_name: string; hook_text: string }) => [
        j.variant_id,
        j.actor_name,
        j.hook_text,
      ]),
    ).toEqual([
      ['H1-A2-C1', 'Character 2', 'Glow all day'],
      ['H1-A1-C1', 'Character 1', 'Glow all day'],
      ['H2-A1-C1', 'Character 1', 'My skin has never looked better'],
    ]);

    // Short of credits: 402 with the price of the whole grid, and nothing queued.
    const poor = await registerUser(server);
    const p = await matrixPack(poor, 0);
    await drainCredits(server, poor.id);
    const refused = await queue(poor, p.id, { ...matrix, character_ids: [p.characters[0], p.characters[1]] });
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ detail: INSUFFICIENT_CREDITS.videos });
  });

  it(
    'renders the chosen cells, reuses each spoken hook, and writes a manifest that joins back',
    { timeout: 240_000 },
    async () => {
      await server.ctx.jobs.start();
      const user = await registerUser(server);
      const { id, characters } = await matrixPack(user);
      // 2 hooks × 1 actor × 2 CTAs, hook 2 × CTA 2 unticked: hook 1 is spoken once for two videos.
      const queued = await queue(user, id, {
        hooks: ['Glow all day', 'Try it'],
        character_ids: [characters[0]],
        ctas: ['Shop now', 'Link in bio'],
        cells: [
          { hook: 0, actor: 0, cta: 0 },
          { hook: 0, actor: 0, cta: 1 },
          { hook: 1, actor: 0, cta: 0 },
        ],
      });
      expect(queued.status).toBe(200);
      const jobs = await waitFor(
        async () => {
          const list = (await call(server, user, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).json;
          const failed = list.find((j: { status: string }) => j.status === 'failed');
          if (failed) expect.fail(`video failed: ${failed.error}`);
          return list.every((j: { status: string }) => j.status === 'completed') ? list : null;
        },
        200_000,
        'the matrix videos',
      );
      expect(jobs.map((j: { variant_id: string }) => j.variant_id)).toEqual(['H1-A1-C1', 'H1-A1-C2', 'H2-A1-C1']);
      // Shared work: two takes stored for three videos, and one video says it reused a take.
      const reused = jobs.filter((j: { logs: string[] }) =>
        j.logs.includes('Voice reused from another video of this pack'),
      );
      expect(reused).toHaveLength(1);
      const pack = await server.ctx.db.kysely
        .selectFrom('hook_packs')
        .select(['user_id', 'file_token'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const prefix = `users/${pack.user_id}/hook-packs/${id}-${pack.file_token}/shared/`;
      const takes = (await readdir(path.join(server.ctx.config.filesDir, prefix))).filter((f) => f.endsWith('.json'));
      expect(takes).toHaveLength(2);
      for (const j of jobs) expect(j.download_url).toContain(`-${j.variant_id.toLowerCase()}-character-1.mp4`);

      const zip = await call(server, user, 'GET', `/api/hooks/${id}/download`);
      expect(zip.status).toBe(200);
      const bytes = Buffer.from(await zip.res.arrayBuffer());
      const names = zipEntryNames(bytes);
      const rows = zipEntry(bytes, 'manifest.csv').toString('utf8').trim().split('\r\n');
      expect(rows[0]).toBe(
        'variant_id,hook,actor,cta,aspect,duration,file,video,language,accent,actor_prompt,real_photo,ai_label',
      );
      const byId = new Map(rows.slice(1).map((r) => [r.split(',')[0], r.split(',')] as const));
      // Join back: an ad platform's row named by variant id finds its hook, actor, CTA and file.
      const ad = byId.get('H1-A1-C2');
      expect(ad?.slice(1, 5)).toEqual(['Glow all day', 'Character 1', 'Link in bio', '9:16']);
      expect(Number(ad?.[5])).toBeGreaterThan(1);
      expect(names).toContain(ad?.[6]);
      expect(ad?.[6]).toMatch(/-video-02-h1-a1-c2-character-1\.mp4$/);
      expect([...byId.keys()].sort()).toEqual(['H1-A1-C1', 'H1-A1-C2', 'H2-A1-C1']);
    },
  );
});
