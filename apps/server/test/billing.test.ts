import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  DEFAULT_TRIAL_CREDITS,
  INSUFFICIENT_CREDITS,
  LEDGER_PAGE_SIZE,
  PRICES,
  type LedgerPage,
  estimatePack,
} from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureHold, grantCredits, ledgerBalances, toHundredths } from '../src/services/billing/credits.ts';
import { createUserWithFreeCredits, deleteAccount } from '../src/services/account/users.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { insertProject, insertUser, uniqueEmail, type InsertedUser } from './helpers/factories.ts';

const ADMIN = 'billing-admin@example.com';
const repoRoot = path.resolve(import.meta.dirname, '../../..');

for (const dialect of TEST_DIALECTS) {
  describe(`credits and demo billing (${dialect})`, () => {
    let server: TestServer;
    let admin: InsertedUser;
    beforeAll(async () => {
      server = await startTestServer({ dialect, env: { ADMIN_EMAILS: ADMIN, BILLING: 'demo' } });
      admin = await insertUser(server, { email: ADMIN });
    });
    afterAll(() => server.close());

    const req = async (user: InsertedUser | null, method: string, p: string, body?: unknown, key?: string) => {
      const headers: Record<string, string> = { ...(user?.headers ?? {}) };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (key) headers['idempotency-key'] = key;
      const res = await fetch(`${server.url}/api${p}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test asserts the fields it reads
      const json: any = (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : null;
      return { status: res.status, json };
    };
    const balance = async (u: InsertedUser) => (await req(u, 'GET', '/user/me')).json.credits as number;
    const invariant = async (userId: number) => {
      const b = await ledgerBalances(server.ctx.db.kysely, userId);
      expect(b.granted).toBe(b.available + b.held + b.consumed);
      return b;
    };
    const ledger = async (u: InsertedUser, cursor?: number): Promise<LedgerPage> =>
      (await req(u, 'GET', `/credits/ledger${cursor ? `?cursor=${cursor}` : ''}`)).json;

    it('serves the one price list, publicly, with the trial amount', async () => {
      const res = await req(null, 'GET', '/credits/prices');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        prices: { ...PRICES },
        trial_credits: DEFAULT_TRIAL_CREDITS,
        // 0.04 credits per second of provider video; a hook video is priced at 8 s.
        realistic: { credits_per_second: 0.04, hook_video: 1.32 },
        characters_per_type: 4,
        videos_per_pack: 12,
      });
      // The default trial buys a full pack (4 characters, 4 previews, 12 videos) and a product-in-hand video.
      expect(DEFAULT_TRIAL_CREDITS).toBe(estimatePack(1).total + PRICES.merge + PRICES.video);
      expect(DEFAULT_TRIAL_CREDITS).toBe(13.7);
    });

    it('grants the trial once per e-mail address: deleting the account and signing up again grants nothing', async () => {
      const email = uniqueEmail('trial');
      const create = () =>
        server.ctx.db.kysely
          .transaction()
          .execute((trx) =>
            createUserWithFreeCredits(trx, { email, passwordHash: null, trialCredits: DEFAULT_TRIAL_CREDITS }),
          );
      const signedIn = async (id: number) =>
        ({ id, headers: { authorization: `Bearer ${await server.ctx.tokens.sign(id)}` } }) as InsertedUser;
      const first = await create();
      const firstUser = await signedIn(first!.id);
      expect(await balance(firstUser)).toBe(DEFAULT_TRIAL_CREDITS);
      const entries = (await ledger(firstUser)).entries;
      expect(entries).toMatchObject([{ kind: 'grant', change: DEFAULT_TRIAL_CREDITS, reason: 'Free trial' }]);

      await deleteAccount(server.ctx, first!.id);
      // The address itself is not kept: only its salted hash.
      const claims = await server.ctx.db.kysely.selectFrom('trial_claims').selectAll().execute();
      expect(claims.some((c) => c.email_hash.includes(email) || c.email_hash.length !== 64)).toBe(false);
      const again = await signedIn((await create())!.id);
      expect(await balance(again)).toBe(0);
      expect((await ledger(again)).entries).toEqual([]);
    });

    it('answers 402 with the message and the amount missing', async () => {
      const u = await insertUser(server, { credits: 0.3 });
      const projectId = await insertProject(server, u.id);
      const res = await req(u, 'POST', `/jobs/${projectId}/queue`);
      expect(res.status).toBe(402);
      expect(res.json).toEqual({ detail: INSUFFICIENT_CREDITS.videos, required: 1, available: 0.3, missing: 0.7 });
    });

    it('demo checkout grants the plan once per Idempotency-Key and reports the subscription', async () => {
      const u = await insertUser(server);
      const before = await req(u, 'GET', '/billing/subscription');
      expect(before.json).toEqual({ mode: 'demo', subscription: null, portal: false, purchase_blocked: null });
      const body = { plan: 'starter', interval: 'month' };
      const [a, b] = await Promise.all([
        req(u, 'POST', '/billing/checkout', body, 'buy-starter-1'),
        req(u, 'POST', '/billing/checkout', body, 'buy-starter-1'),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.json.url).toBe(`${server.url}/credits?checkout=success`);
      expect(await balance(u)).toBe(15);
      const after = await req(u, 'GET', '/billing/subscription');
      expect(after.json.subscription).toMatchObject({ plan: 'starter', interval: 'month', status: 'active' });

      // A yearly Growth plan grants twelve months of credits; a bundle adds its own.
      expect((await req(u, 'POST', '/billing/checkout', { plan: 'growth', interval: 'year' }, 'k2')).status).toBe(200);
      expect((await req(u, 'POST', '/billing/checkout', { bundle: 'bundle-5' }, 'k3')).status).toBe(200);
      expect(await balance(u)).toBe(15 + 480 + 5);
      expect((await req(u, 'GET', '/billing/subscription')).json.subscription).toMatchObject({
        plan: 'growth',
        interval: 'year',
      });
      // The plan one has is not sold again (with a new key too): its credits are not granted twice.
      const again = await req(u, 'POST', '/billing/checkout', { plan: 'growth', interval: 'year' }, 'k4');
      expect(again.status).toBe(409);
      expect(again.json.detail).toBe('This is already your plan');
      expect(await balance(u)).toBe(15 + 480 + 5);
      const kinds = (await ledger(u)).entries.map((e) => [e.kind, e.change, e.reason]);
      expect(kinds).toEqual([
        ['purchase', 5, '5 credits bundle (demo)'],
        ['purchase', 480, 'Growth plan (demo)'],
        ['purchase', 15, 'Starter plan (demo)'],
      ]);
      await invariant(u.id);
    });

    it('rejects a bad checkout request and keeps the portal for Stripe billing', async () => {
      const u = await insertUser(server);
      expect((await req(u, 'POST', '/billing/checkout', { plan: 'gold', interval: 'month' })).status).toBe(422);
      expect((await req(u, 'POST', '/billing/checkout', { plan: 'starter' })).status).toBe(422);
      expect(
        (await req(u, 'POST', '/billing/checkout', { plan: 'starter', interval: 'month', bundle: 'bundle-5' })).status,
      ).toBe(422);
      expect((await req(null, 'POST', '/billing/checkout', { bundle: 'bundle-5' })).status).toBe(401);
      const portal = await req(u, 'POST', '/billing/portal');
      expect(portal.status).toBe(404);
      expect(await balance(u)).toBe(0);
    });

    it('lists every movement with the balance after it and a link to its job, newest first, page by page', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await insertProject(server, u.id);
      const q = await req(u, 'POST', `/jobs/${projectId}/queue`, undefined, 'ledger-q1');
      expect(q.status).toBe(201);
      const jobId = q.json.id as number;
      // The job finishes: its hold is captured.
      const job = await server.ctx.db.kysely
        .selectFrom('jobs')
        .select('hold_id')
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      await server.ctx.db.kysely.transaction().execute((trx) => captureHold(trx, job.hold_id!));
      const page = await ledger(u);
      expect(page.entries.map((e) => [e.kind, e.change, e.balance_after, e.job_id])).toEqual([
        ['capture', 0, 2, jobId],
        ['hold', -1, 2, jobId],
        ['grant', 3, 3, null],
      ]);
      expect(page.entries[1]!.reason).toBe('Product-in-hand video');
      expect(page.next_cursor).toBeNull();

      // Pagination: LEDGER_PAGE_SIZE a page, a cursor to the older ones, each entry exactly once.
      for (let i = 0; i < LEDGER_PAGE_SIZE; i++) {
        await grantCredits(server.ctx.db.kysely, u.id, toHundredths(0.01), `tick ${i}`);
      }
      const first = await ledger(u);
      expect(first.entries).toHaveLength(LEDGER_PAGE_SIZE);
      expect(first.next_cursor).not.toBeNull();
      const second = await ledger(u, first.next_cursor!);
      expect(second.entries.map((e) => e.kind)).toEqual(['capture', 'hold', 'grant']);
      expect(second.next_cursor).toBeNull();
      // Another user's ledger is not visible.
      const other = await insertUser(server);
      expect((await ledger(other)).entries).toEqual([]);
      expect((await req(null, 'GET', '/credits/ledger')).status).toBe(401);
      expect((await req(u, 'GET', '/credits/ledger?cursor=abc')).status).toBe(422);
    });

    it('lets administrators grant and take credits with a reason, as ledger rows; others get 403', async () => {
      const u = await insertUser(server, { credits: 1 });
      /** POST /admin/credits as `as`: grant or take `amount` credits of the user with `email`, for `reason`. */
      const adjust = (as: InsertedUser, email: string, action: 'grant' | 'take', amount: number, reason: string) =>
        req(as, 'POST', '/admin/credits', { email, action, amount, reason });
      const grant = await adjust(admin, u.email, 'grant', 2.5, 'Goodwill for a slow render');
      expect(grant.status).toBe(200);
      expect(grant.json).toEqual({ email: u.email, credits: 3.5 });
      const take = await adjust(admin, u.email.toUpperCase(), 'take', 1, 'Granted twice by mistake');
      expect(take.json).toEqual({ email: u.email, credits: 2.5 });
      const tooMuch = await adjust(admin, u.email, 'take', 9, 'Too much');
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.json.detail).toBe('The user has only 2.50 credits to take');
      expect((await adjust(admin, u.email, 'grant', 1, '')).status).toBe(422);
      expect((await adjust(admin, 'nobody@example.com', 'grant', 1, 'Hello there')).status).toBe(404);
      expect((await adjust(u, u.email, 'grant', 100, 'Free money')).status).toBe(403);
      expect((await ledger(u)).entries.map((e) => [e.kind, e.change, e.balance_after, e.reason])).toEqual([
        ['take', -1, 2.5, 'Granted twice by mistake'],
        ['grant', 2.5, 3.5, 'Goodwill for a slow render'],
        ['grant', 1, 1, 'test grant'],
      ]);
      await invariant(u.id);
    });

    it('grants from the command line: npm run credits -- grant <email> <amount> "<reason>"', async () => {
      const u = await insertUser(server);
      const run = (args: string[]) =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/credits.ts', ...args], {
            cwd: repoRoot,
            env: { ...process.env, DATA_DIR: server.ctx.config.dataDir, DATABASE_URL: server.ctx.config.databaseUrl },
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('close', (code) => resolve({ code, out, err }));
        });
      const ok = await run(['grant', u.email, '4', 'Conference prize']);
      expect(ok.err).toBe('');
      expect(ok.out.trim()).toBe(`Granted 4.00 credits (${u.email}); balance now 4.00`);
      expect(ok.code).toBe(0);
      const bad = await run(['take', u.email, '10', 'Too much']);
      expect(bad.code).toBe(1);
      expect(bad.err.trim()).toBe('The user has only 4.00 credits to take');
      expect((await run(['grant', u.email, 'lots'])).code).toBe(2);
      expect((await ledger(u)).entries).toMatchObject([{ kind: 'grant', change: 4, reason: 'Conference prize' }]);
      // The shell's grant is in the admin log too, as the command line (decision 175).
      const logged = await server.ctx.db.kysely
        .selectFrom('admin_audit')
        .select(['action', 'credential', 'target'])
        .where('target', '=', `email:${u.email}`)
        .execute();
      expect(logged).toEqual([{ action: 'credits.grant', credential: 'cli', target: `email:${u.email}` }]);
    }, 60_000);

    it('refund requests: the owner reports a charged job once, an administrator approves or declines once', async () => {
      const u = await insertUser(server, { credits: 3 });
      const projectId = await insertProject(server, u.id);
      const queue = async (key: string) =>
        (await req(u, 'POST', `/jobs/${projectId}/queue`, undefined, key)).json.id as number;
      const done = await queue('refund-1');
      const declinedJob = await queue('refund-2');
      const running = await queue('refund-3');
      for (const id of [done, declinedJob]) {
        const job = await server.ctx.db.kysely
          .selectFrom('jobs')
          .select('hold_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        await server.ctx.db.kysely.transaction().execute(async (trx) => {
          await captureHold(trx, job.hold_id!);
          await trx.updateTable('jobs').set({ status: 'completed', progress: 100 }).where('id', '=', id).execute();
        });
      }
      const reason = { reason: 'The actor holds the bottle upside down' };
      expect((await req(u, 'POST', `/jobs/${running}/refund-request`, reason)).status).toBe(422);
      const other = await insertUser(server);
      expect((await req(other, 'POST', `/jobs/${done}/refund-request`, reason)).status).toBe(404);
      expect((await req(u, 'POST', `/jobs/${done}/refund-request`, { reason: 'bad' })).status).toBe(422);
      const asked = await req(u, 'POST', `/jobs/${done}/refund-request`, reason);
      expect(asked.status).toBe(201);
      expect(asked.json).toMatchObject({ job_id: done, amount: 1, state: 'pending', user_email: u.email });
      expect((await req(u, 'POST', `/jobs/${done}/refund-request`, reason)).status).toBe(409);
      const second = await req(u, 'POST', `/jobs/${declinedJob}/refund-request`, reason);

      expect((await req(u, 'GET', '/admin/refunds')).status).toBe(403);
      const pending = await req(admin, 'GET', '/admin/refunds');
      expect(pending.json.filter((r: { user_email: string }) => r.user_email === u.email)).toHaveLength(2);
      expect((await req(u, 'POST', `/admin/refunds/${asked.json.id}`, { decision: 'approve' })).status).toBe(403);
      const approved = await req(admin, 'POST', `/admin/refunds/${asked.json.id}`, {
        decision: 'approve',
        note: 'Agreed',
      });
      expect(approved.json).toMatchObject({ state: 'approved', decision_note: 'Agreed' });
      expect((await req(admin, 'POST', `/admin/refunds/${asked.json.id}`, { decision: 'approve' })).status).toBe(409);
      const declined = await req(admin, 'POST', `/admin/refunds/${second.json.id}`, {
        decision: 'decline',
        note: 'Looks right',
      });
      expect(declined.json.state).toBe('declined');
      expect((await req(admin, 'POST', '/admin/refunds/999999', { decision: 'approve' })).status).toBe(404);

      // One credit back, once; the ledger says so with a link to the job.
      expect(await balance(u)).toBe(1);
      expect((await ledger(u)).entries[0]).toMatchObject({ kind: 'refund', change: 1, job_id: done, balance_after: 1 });
      expect((await req(u, 'GET', '/credits/refunds')).json.map((r: { state: string }) => r.state)).toEqual([
        'declined',
        'approved',
      ]);
      await invariant(u.id);
    });
  });
}

describe('billing modes', () => {
  it('BILLING=off refuses purchases', async () => {
    const server = await startTestServer({ env: { BILLING: 'off' } });
    try {
      const u = await insertUser(server);
      const res = await fetch(`${server.url}/api/billing/checkout`, {
        method: 'POST',
        headers: { ...u.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ bundle: 'bundle-5' }),
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Purchases are turned off on this server' });
      const state = await (await fetch(`${server.url}/api/billing/subscription`, { headers: u.headers })).json();
      expect(state).toEqual({ mode: 'off', subscription: null, portal: false, purchase_blocked: null });
    } finally {
      await server.close();
    }
  });

  it('TRIAL_CREDITS sets the trial and BILLING=stripe without its secrets does not start', async () => {
    const server = await startTestServer({ env: { TRIAL_CREDITS: '2.5' } });
    try {
      const prices = (await (await fetch(`${server.url}/api/credits/prices`)).json()) as { trial_credits: number };
      expect(prices.trial_credits).toBe(2.5);
    } finally {
      await server.close();
    }
    await expect(startTestServer({ env: { BILLING: 'stripe' } })).rejects.toThrow(
      'BILLING=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  });
});
