import type { Avatar } from '@hookreel/contracts';
import { INSUFFICIENT_CREDITS, PRICES } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { grantCredits, toHundredths } from '../src/services/billing/credits.ts';

import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';

import {
  availableCredits,
  call,
  createProductProject,
  drainCredits,
  fakeApprovedPreview,
  packWithCharacters,
} from './hook-helpers.ts';

/**
 * A request that makes several videos is refused whole when the balance is short, and its 402 names what the whole
 * request needs (decision 197): the user tops up once, by the right amount.
 */
describe.each(TEST_DIALECTS)('402 names the whole shortfall (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  /** Leaves the user with exactly `credits` to spend (set-up such as generating characters spends some). */
  async function leaveWith(user: TestUser, credits: number): Promise<void> {
    await drainCredits(t.server, user.id);
    await t.server.ctx.db.kysely
      .transaction()
      .execute((trx) => grantCredits(trx, user.id, toHundredths(credits), 'test top-up'));
  }

  /** The 402 of a request for videos names the whole shortfall, and nothing of the balance is held. */
  async function expectVideosShortfall(
    user: TestUser,
    res: { status: number; json: unknown },
    shortfall: { required: number; available: number; missing: number },
  ): Promise<void> {
    expect(res.status).toBe(402);
    expect(res.json).toEqual({ detail: INSUFFICIENT_CREDITS.videos, ...shortfall });
    expect(await availableCredits(t.server, user.id)).toBe(toHundredths(shortfall.available));
  }

  async function approvedPack(user: TestUser, actors: number) {
    const { id, characters } = await packWithCharacters(t.server, user, { name: 'Short', count: actors });
    for (const c of characters) await fakeApprovedPreview(t.server, id, c);
    return { id, characters };
  }

  it('a 20-video matrix with 13.20 credits needs 6.80 more, and nothing is held', async () => {
    const user = await registerUser(t.server);
    const { id, characters } = await approvedPack(user, 2);
    await leaveWith(user, 13.2);
    // 5 hooks × 2 actors × 2 CTAs, every cell ticked: 20 videos.
    const matrix = {
      hooks: ['Glow all day', 'Try it tonight', 'My skin thanks me', 'Why I switched', 'One drop is enough'],
      character_ids: characters,
      ctas: ['Shop now', 'Link in bio'],
    };
    const res = await call(t.server, user, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`, { matrix });
    await expectVideosShortfall(user, res, { required: 20 * PRICES.video, available: 13.2, missing: 6.8 });
    expect((await call(t.server, user, 'GET', `/api/jobs/hook-pack/${id}/jobs`)).json).toEqual([]);
  });

  it("a pack's 12 videos with 5 credits need 7 more", async () => {
    const user = await registerUser(t.server);
    const { id } = await approvedPack(user, 1);
    await leaveWith(user, 5);
    const res = await call(t.server, user, 'POST', `/api/jobs/hook-pack/${id}/queue-videos`);
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ required: 12 * PRICES.video, available: 5, missing: 7 });
    expect(await availableCredits(t.server, user.id)).toBe(500);
  });

  it('product in hand for two merged actors with 1.50 credits needs 0.50 more', async () => {
    const user = await registerUser(t.server);
    const created = await createProductProject(t.server, user, 'Two actors');
    const projectId = created.json.id as number;
    const actors = ((await call(t.server, user, 'GET', `/api/avatars/?project_id=${projectId}`)).json as Avatar[])
      .slice(0, 2)
      .map((a) => a.id);
    await call(t.server, user, 'POST', `/api/projects/${projectId}/selected-characters`, { character_ids: actors });
    await call(t.server, user, 'PUT', `/api/projects/${projectId}`, { script: 'Two actors, one serum. Try it.' });
    // Both merges done (the merge itself is merge.test.ts's subject).
    for (const a of actors) {
      await projectsRepository.setMergeState(t.server.ctx.db.kysely, projectId, a, {
        status: 'merged',
        mergedKey: `users/${user.id}/merged-${a}.png`,
      });
    }
    await leaveWith(user, 1.5);
    const res = await call(t.server, user, 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`);
    await expectVideosShortfall(user, res, { required: 2 * PRICES.video, available: 1.5, missing: 0.5 });
  });
});
