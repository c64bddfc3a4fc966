import { INSUFFICIENT_CREDITS, Job, ProviderUsageByPlan } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureHold, releaseHold } from '../src/services/billing/credits.ts';
import { LIST_PRICES } from '../src/services/billing/provider-prices.ts';
import { createJob } from '../src/services/jobs/index.ts';
import { renderProjectVideoJob } from '../src/services/projects/jobs.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertProject, insertUser, type InsertedUser } from './helpers/factories.ts';

/**
 * GET /api/admin/provider-usage: what the providers were asked for, per plan of the users who asked, beside the
 * credits those jobs captured, so an operator can see the margin per plan (docs/providers.md). Administrators only.
 */
const ADMIN = 'usage-admin@example.com';

for (const dialect of TEST_DIALECTS) {
  describe(`provider usage per plan (${dialect})`, () => {
    let server: TestServer;
    let admin: InsertedUser;

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: { ADMIN_EMAILS: ADMIN } });
      admin = await insertUser(server, { email: ADMIN });
    });
    afterAll(() => server?.close());

    const usage = (u: InsertedUser, query = '') =>
      fetch(`${server.url}/api/admin/provider-usage${query}`, { headers: u.headers });

    /** A project video holding `credits`, with what the providers billed for it, ended as `end`. */
    async function costedJob(
      u: InsertedUser,
      credits: number,
      cost: { images: number; characters: number; seconds: number; calls: number } | null,
      end: 'completed' | 'failed',
      createdAt?: string,
    ) {
      const db = server.ctx.db.kysely;
      const projectId = await insertProject(server, u.id);
      const id = await db.transaction().execute((trx) =>
        createJob(trx, renderProjectVideoJob, {
          userId: u.id,
          payload: { projectId, quality: 'realistic' },
          projectName: 'Serum',
          projectId,
          price: 'video',
          credits,
          insufficientMessage: INSUFFICIENT_CREDITS.videos,
        }),
      );
      const row = await db.selectFrom('jobs').select('hold_id').where('id', '=', id).executeTakeFirstOrThrow();
      if (end === 'completed') await captureHold(db, row.hold_id!);
      else await releaseHold(db, row.hold_id!);
      await db
        .updateTable('jobs')
        .set({
          status: end,
          cost: cost ? JSON.stringify(cost) : null,
          ...(createdAt ? { created_at: createdAt } : {}),
        })
        .where('id', '=', id)
        .execute();
      return id;
    }

    async function subscribe(u: InsertedUser, plan: 'starter' | 'growth', status: 'active' | 'canceled') {
      const t = new Date().toISOString();
      await server.ctx.db.kysely
        .insertInto('subscriptions')
        .values({
          user_id: u.id,
          provider: 'demo',
          external_id: null,
          plan,
          interval: 'month',
          status,
          cancel_at_period_end: 0,
          current_period_end: null,
          created_at: t,
          updated_at: t,
        })
        .execute();
    }

    it('sums the units and captured credits per plan; failed jobs count their calls but no credits', async () => {
      const free = await insertUser(server, { credits: 10 });
      const starter = await insertUser(server, { credits: 10 });
      const lapsed = await insertUser(server, { credits: 10 });
      await subscribe(starter, 'starter', 'active');
      await subscribe(lapsed, 'growth', 'canceled');

      const paid = await costedJob(starter, 1.6, { images: 1, characters: 200, seconds: 15, calls: 3 }, 'completed');
      await costedJob(starter, 1.32, { images: 2, characters: 12, seconds: 2.5, calls: 4 }, 'completed');
      // Failed at the avatar provider: refunded, but the edit and the voice were billed.
      await costedJob(starter, 1.6, { images: 1, characters: 200, seconds: 0, calls: 2 }, 'failed');
      await costedJob(free, 1.16, { images: 0, characters: 45, seconds: 4, calls: 2 }, 'completed');
      // A cancelled subscription is no plan now.
      await costedJob(lapsed, 1.16, { images: 0, characters: 45, seconds: 4, calls: 2 }, 'completed');
      // A Draft video called no provider; a job older than the period is left out.
      await costedJob(free, 1, null, 'completed');
      await costedJob(
        starter,
        1.6,
        { images: 9, characters: 9, seconds: 9, calls: 9 },
        'completed',
        '2020-01-01T00:00:00.000Z',
      );

      const res = await usage(admin, '?days=7');
      expect(res.status).toBe(200);
      const body = ProviderUsageByPlan.parse(await res.json());
      expect(Date.parse(body.since)).toBeGreaterThan(Date.now() - 7 * 86_400_000 - 60_000);
      expect(body.plans).toEqual([
        {
          plan: 'none',
          jobs: 2,
          failed_jobs: 0,
          credits_charged: 2.32,
          images: 0,
          characters: 90,
          seconds: 8,
          calls: 4,
          // At the list prices: 90 characters at $0.12/1k and 8 s at $0.14.
          usd: 1.13,
        },
        {
          plan: 'starter',
          jobs: 3,
          failed_jobs: 1,
          credits_charged: 2.92,
          images: 4,
          characters: 412,
          seconds: 17.5,
          calls: 9,
          usd: 2.75,
        },
      ]);
      // Priced at the default models' list prices, dated; no operator setting here.
      expect(body.prices).toEqual({
        as_of: LIST_PRICES.asOf,
        source: 'list',
        usd_per_image: 0.063,
        usd_per_1k_characters: 0.12,
        usd_per_second: 0.14,
      });

      // The job's owner reads the same money beside its units: 1 image, 200 characters, 15 s.
      const job = await fetch(`${server.url}/api/jobs/${paid}`, { headers: starter.headers });
      expect(Job.parse(await job.json()).cost_usd).toEqual({ usd: 2.19, prices: body.prices });
    });

    it('is for administrators only, and checks its period', async () => {
      const someone = await insertUser(server, { credits: 1 });
      expect((await usage(someone)).status).toBe(403);
      expect((await fetch(`${server.url}/api/admin/provider-usage`)).status).toBe(401);
      expect((await usage(admin, '?days=0')).status).toBe(422);
      expect((await usage(admin)).status).toBe(200);
    });
  });
}
