import { DEFAULT_TRIAL_CREDITS, INTEGRATION_MESSAGES, PURCHASE_REFUSALS } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { logCapture } from './helpers/log-capture.ts';
import { postJson, registerUser, type TestUser } from './helpers/factories.ts';

/**
 * Issue #33, over HTTP: a stranger must not mint credits. Each test is one finding of the second security test,
 * and failed on the code before the fix: demo money by default, buying unverified or with a key, trials farmed
 * with Gmail spellings, an administrator's everyday key granting credits, admin actions without a trace.
 */

const ADMIN = 'abuse-admin@example.com';
const rand = () => Math.random().toString(36).slice(2, 8);

describe.each(TEST_DIALECTS)('credits, trials and keys cannot be abused (%s)', (dialect) => {
  let demo: TestServer;
  let byDefault: TestServer;
  const log = logCapture();
  beforeAll(async () => {
    [demo, byDefault] = await Promise.all([
      startTestServer({
        dialect,
        env: { BILLING: 'demo', ADMIN_EMAILS: ADMIN, LOG_LEVEL: 'warn' },
        logStream: log.stream,
      }),
      // No BILLING at all: what an operator gets without choosing.
      startTestServer({ dialect, env: { ADMIN_EMAILS: ADMIN } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([demo?.close(), byDefault?.close()]);
  });

  const call = async (server: TestServer, auth: Record<string, string>, method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api${p}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test asserts the fields it reads
    const json: any = (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : null;
    return { status: res.status, json };
  };
  const credits = async (server: TestServer, u: TestUser) =>
    (await call(server, u.authHeader, 'GET', '/user/me')).json.credits as number;
  const newKey = async (server: TestServer, u: TestUser, scope?: 'user' | 'admin') =>
    postJson(server, '/api/api-keys', { name: `k-${rand()}`, ...(scope ? { scope } : {}) }, u.authHeader);
  const keyHeader = (key: string) => ({ authorization: `Bearer ${key}` });

  it('billing is off unless the operator turns it on: no free plan on a default server', async () => {
    const u = await registerUser(byDefault);
    const before = await credits(byDefault, u);
    const res = await call(byDefault, u.authHeader, 'POST', '/billing/checkout', { plan: 'agency', interval: 'year' });
    expect(res.status).toBe(404);
    expect(res.json.detail).toBe('Purchases are turned off on this server');
    expect((await call(byDefault, u.authHeader, 'GET', '/billing/subscription')).json.mode).toBe('off');
    expect(await credits(byDefault, u)).toBe(before);
  });

  it('demo money is announced loudly in the start-up log', () => {
    expect(log.text()).toContain('BILLING=demo: DEMO MONEY IS ON');
    expect(log.text()).toMatch(/"level":40/);
  });

  it('an unverified account cannot buy, even in demo mode, and is told why', async () => {
    const u = await registerUser(demo, { verified: false });
    for (const body of [{ bundle: 'bundle-50' }, { plan: 'agency', interval: 'year' }]) {
      const res = await call(demo, u.authHeader, 'POST', '/billing/checkout', body);
      expect(res.status).toBe(403);
      expect(res.json.detail).toBe(PURCHASE_REFUSALS.unverified);
    }
    expect(await credits(demo, u)).toBe(0);
    const state = (await call(demo, u.authHeader, 'GET', '/billing/subscription')).json;
    expect(state).toMatchObject({ mode: 'demo', purchase_blocked: PURCHASE_REFUSALS.unverified });
  });

  it('an API key cannot buy (nor open the portal), even its verified owner’s', async () => {
    const u = await registerUser(demo);
    const key = ((await (await newKey(demo, u)).json()) as { key: string }).key;
    const before = await credits(demo, u);
    const res = await call(demo, keyHeader(key), 'POST', '/billing/checkout', { bundle: 'bundle-50' });
    expect(res.status).toBe(403);
    expect(res.json.detail).toBe(PURCHASE_REFUSALS.apiKey);
    expect(await credits(demo, u)).toBe(before);
    expect((await call(demo, keyHeader(key), 'GET', '/billing/subscription')).json.purchase_blocked).toBe(
      PURCHASE_REFUSALS.apiKey,
    );
    // The verified owner's own session still buys with demo money, which is what demo mode is for.
    expect((await call(demo, u.authHeader, 'POST', '/billing/checkout', { bundle: 'bundle-5' })).status).toBe(200);
    expect(await credits(demo, u)).toBe(before + 5);
  });

  it('one trial per Gmail mailbox: dots, googlemail.com and +tags are the same address', async () => {
    const name = `ada${rand()}`;
    const first = await registerUser(demo, { email: `${name.slice(0, 2)}.${name.slice(2)}@gmail.com` });
    expect(await credits(demo, first)).toBe(DEFAULT_TRIAL_CREDITS);
    for (const spelling of [`${name}@googlemail.com`, `${name.split('').join('.')}+again@gmail.com`]) {
      const again = await registerUser(demo, { email: spelling });
      expect(await credits(demo, again)).toBe(0);
      // The address the person typed is what they see; the mailbox is kept beside it.
      const me = (await call(demo, again.authHeader, 'GET', '/user/me')).json;
      expect(me.email).toBe(spelling.toLowerCase());
      const row = await demo.ctx.db.kysely
        .selectFrom('users')
        .select(['email', 'email_canonical'])
        .where('id', '=', again.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ email: spelling.toLowerCase(), email_canonical: `${name}@gmail.com` });
    }
    // A different mailbox still gets its trial.
    expect(await credits(demo, await registerUser(demo, { email: `bob${rand()}@gmail.com` }))).toBe(
      DEFAULT_TRIAL_CREDITS,
    );
  });

  describe('administrators and their keys', () => {
    let admin: TestUser;
    beforeAll(async () => {
      admin = await registerUser(demo, { email: ADMIN });
    });
    const grant = (auth: Record<string, string>, email: string) =>
      call(demo, auth, 'POST', '/admin/credits', { email, action: 'grant', amount: 1000, reason: 'abuse probe' });
    const auditRows = () => demo.ctx.db.kysely.selectFrom('admin_audit').selectAll().orderBy('id', 'asc').execute();

    it('an administrator’s everyday key cannot grant credits', async () => {
      const victim = await registerUser(demo);
      const key = ((await (await newKey(demo, admin)).json()) as { key: string; scope: string }).key;
      const res = await grant(keyHeader(key), victim.email);
      expect(res.status).toBe(403);
      expect(res.json.detail).toBe(INTEGRATION_MESSAGES.apiKeyNotAdmin);
      expect(await credits(demo, victim)).toBe(DEFAULT_TRIAL_CREDITS);
      for (const p of ['/admin/refunds', '/admin/provider-usage'])
        expect((await call(demo, keyHeader(key), 'GET', p)).status).toBe(403);
    });

    it('only an administrator can make an admin key, on purpose, and it says so', async () => {
      const someone = await registerUser(demo);
      const refused = await newKey(demo, someone, 'admin');
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { detail: string }).detail).toBe(INTEGRATION_MESSAGES.adminKeyOnlyForAdmins);
      const plain = (await (await newKey(demo, admin)).json()) as { scope: string };
      expect(plain.scope).toBe('user');
      const made = await newKey(demo, admin, 'admin');
      expect(made.status).toBe(201);
      const created = (await made.json()) as { id: number; scope: string };
      expect(created.scope).toBe('admin');
      const listed = (await call(demo, admin.authHeader, 'GET', '/api-keys')).json as Array<{
        id: number;
        scope: string;
      }>;
      expect(listed.find((k) => k.id === created.id)?.scope).toBe('admin');
    });

    it('every admin action is logged with who and which credential (session or key id)', async () => {
      const victim = await registerUser(demo);
      const made = (await (await newKey(demo, admin, 'admin')).json()) as { id: number; key: string };
      const before = (await auditRows()).length;
      expect((await grant(admin.authHeader, victim.email)).status).toBe(200);
      expect((await grant(keyHeader(made.key), victim.email)).status).toBe(200);
      expect((await call(demo, keyHeader(made.key), 'GET', '/admin/refunds')).status).toBe(200);
      const rows = (await auditRows()).slice(before);
      expect(rows.map((r) => [r.action, r.credential, r.api_key_id, r.user_email, r.target])).toEqual([
        ['credits.grant', 'session', null, ADMIN, `email:${victim.email}`],
        ['credits.grant', 'api_key', made.id, ADMIN, `email:${victim.email}`],
        ['refunds.list', 'api_key', made.id, ADMIN, null],
      ]);
      expect(JSON.parse(rows[0]!.detail!)).toEqual({ amount: 1000 });
      // Making the admin key was itself logged.
      const all = await auditRows();
      expect(all.some((r) => r.action === 'api_key.create_admin' && r.target === `api_key:${made.id}`)).toBe(true);
    });
  });
});
