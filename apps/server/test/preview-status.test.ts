import { MESSAGES } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';

import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { call, packWithEverything } from './hook-helpers.ts';

/**
 * A preview's status is never null (decision 198): pending until the user approves or unapproves it, and pending
 * again when its picture is made anew; and 'Preview data not found' is the answer a screen can show when the
 * preview is gone or has no picture to approve.
 */
describe.each(TEST_DIALECTS)('preview status (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  /** The preview's picture finished rendering (the runner is not started in this file). */
  const finishRender = (previewId: number) =>
    t.server.ctx.db.kysely
      .updateTable('preview_characters')
      .set({ image_key: 'users/0/hook-packs/fake.png', job_id: null })
      .where('id', '=', previewId)
      .execute();
  const previewOf = async (user: TestUser, packId: number, previewId: number) =>
    (
      (await call(t.server, user, 'GET', `/api/hooks/${packId}`)).json.preview_characters as Array<{
        id: number;
        status: string | null;
        approved: boolean;
      }>
    ).find((p) => p.id === previewId);

  it('is pending from the start, accepted or rejected by the user, and pending again after a product redo', async () => {
    const user = await registerUser(t.server);
    const p = await packWithEverything(t.server, user);
    expect(await previewOf(user, p.id, p.previewId)).toMatchObject({ status: 'pending', approved: false });

    // Still rendering: nothing to approve yet.
    const early = await call(t.server, user, 'PUT', `/api/hooks/preview/${p.previewId}`, { approved: true });
    expect(early).toMatchObject({ status: 422, json: { detail: MESSAGES.hookPacks.previewNotFound } });

    await finishRender(p.previewId);
    const approved = await call(t.server, user, 'PUT', `/api/hooks/preview/${p.previewId}`, { approved: true });
    expect(approved.json).toMatchObject({ approved: true, status: 'accepted' });
    const rejected = await call(t.server, user, 'PUT', `/api/hooks/preview/${p.previewId}`, { status: 'rejected' });
    expect(rejected.json).toMatchObject({ approved: false, status: 'rejected' });

    const redo = await call(t.server, user, 'POST', `/api/hooks/preview/${p.previewId}/regenerate?reason=product`);
    expect(redo.status).toBe(200);
    expect(redo.json).toMatchObject({ id: p.previewId, approved: false, status: 'pending', url: null });
    expect(await previewOf(user, p.id, p.previewId)).toMatchObject({ status: 'pending' });

    // Pending is the t.server's word for "not judged yet"; a user chooses accepted or rejected.
    const pending = await call(t.server, user, 'PUT', `/api/hooks/preview/${p.previewId}`, { status: 'pending' });
    expect(pending.status).toBe(422);
  });

  it('reads a row saved before statuses were set on creation as pending, or accepted when approved', async () => {
    const user = await registerUser(t.server);
    const p = await packWithEverything(t.server, user);
    await t.server.ctx.db.kysely
      .updateTable('preview_characters')
      .set({ status: null })
      .where('id', '=', p.previewId)
      .execute();
    expect(await previewOf(user, p.id, p.previewId)).toMatchObject({ status: 'pending' });
    await t.server.ctx.db.kysely
      .updateTable('preview_characters')
      .set({ status: null, approved: 1 })
      .where('id', '=', p.previewId)
      .execute();
    expect(await previewOf(user, p.id, p.previewId)).toMatchObject({ status: 'accepted', approved: true });
  });

  it("answers 'Preview data not found' for a preview that is gone or someone else's", async () => {
    const user = await registerUser(t.server);
    const p = await packWithEverything(t.server, user);
    const stranger = await registerUser(t.server);
    const theirs = await call(t.server, stranger, 'PUT', `/api/hooks/preview/${p.previewId}`, { approved: false });
    expect(theirs).toMatchObject({ status: 404, json: { detail: MESSAGES.hookPacks.previewNotFound } });
    await t.server.ctx.db.kysely.deleteFrom('preview_characters').where('id', '=', p.previewId).execute();
    const gone = await call(t.server, user, 'PUT', `/api/hooks/preview/${p.previewId}`, { approved: true });
    expect(gone).toMatchObject({ status: 404, json: { detail: MESSAGES.hookPacks.previewNotFound } });
  });
});
