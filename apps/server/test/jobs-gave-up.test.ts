import { MESSAGES, type Avatar, type AvatarWithStatus } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, ledgerBalances, toHundredths } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { formData } from './helpers/images.ts';
import { call, createProductProject, packWithEverything, waitFor } from './hook-helpers.ts';

/**
 * A job whose every attempt died with its worker (lease expired each time) is found past its attempts and failed
 * without its handler running. The feature rows that job was filling must still end — a merge "failed" (so a new
 * one may start), pending characters "failed", previews with the error message — or the screens would wait forever.
 */
describe('jobs that fail for good leave no feature waiting', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_MS: '100' } }); // the runner starts later, in the test
    user = await registerUser(server);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(50), 'test');
  }, 120_000);
  afterAll(() => server?.close());

  it('ends a merge failed, pending characters failed and previews with the error, and releases their credits', async () => {
    const created = await createProductProject(server, user, 'Serum');
    expect(created.status).toBe(200);
    const projectId = created.json.id as number;
    const actor = ((await call(server, user, 'GET', `/api/avatars/?project_id=${projectId}`)).json as Avatar[])[0]!;
    const mergeForm = () =>
      formData([
        { name: 'project_id', value: String(projectId) },
        { name: 'character_id', value: String(actor.id) },
        { name: 'mask_data', value: JSON.stringify({ position_x: 300, position_y: 640, scale: 0.3, rotation: 0 }) },
      ]);
    const merge = await call(server, user, 'POST', '/api/merge/single', mergeForm());
    expect(merge.status).toBe(200);
    const pack = await packWithEverything(server, user);

    // Every attempt was claimed and its worker killed: the next claim finds the jobs past their attempts.
    const db = server.ctx.db.kysely;
    const jobIds = (await db.selectFrom('jobs').select('id').where('user_id', '=', user.id).execute()).map((j) => j.id);
    expect(jobIds).toHaveLength(3); // the merge, the characters, the preview
    await db
      .updateTable('jobs')
      .set((eb) => ({ attempts: eb.ref('max_attempts') }))
      .where('user_id', '=', user.id)
      .execute();
    await server.ctx.jobs.start();

    const jobs = await waitFor(
      async () => {
        const rows = await db.selectFrom('jobs').selectAll().where('id', 'in', jobIds).execute();
        return rows.every((r) => r.status === 'failed') ? rows : null;
      },
      30_000,
      'the three jobs to fail',
    );
    for (const j of jobs) expect(j.error).toMatch(/^Stopped after \d+ attempts$/);

    const [state] = (await call(server, user, 'GET', `/api/merge/avatars-with-status/${projectId}`))
      .json as AvatarWithStatus[];
    expect(state).toMatchObject({ avatar_id: actor.id, status: 'failed', merged_url: null });

    const characters = await db
      .selectFrom('generated_characters')
      .selectAll()
      .where('hook_pack_id', '=', pack.id)
      .execute();
    expect(characters.length).toBeGreaterThan(0);
    for (const c of characters) expect(c.status).toBe('failed');
    const preview = await db
      .selectFrom('preview_characters')
      .selectAll()
      .where('id', '=', pack.previewId)
      .executeTakeFirstOrThrow();
    expect(preview.errors).toBe(MESSAGES.hookPacks.previewImagesFailed);

    const balances = await ledgerBalances(db, user.id);
    expect(balances.held).toBe(0);
    expect(balances.consumed).toBe(0);

    // The failed merge does not block a new one.
    expect((await call(server, user, 'POST', '/api/merge/single', mergeForm())).status).toBe(200);
  });
});
