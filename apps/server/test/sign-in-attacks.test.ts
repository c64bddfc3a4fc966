import { FREE_CREDITS_GRANT, MESSAGES, TokenPair, VALIDATION, type User } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { CookieJar } from './helpers/cookie-jar.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { logCapture } from './helpers/log-capture.ts';
import { emailSignIn } from './helpers/email-sign-in.ts';
import {
  bearer,
  createProjectOverHttp,
  postJson,
  registerUser,
  signIn,
  TEST_PASSWORD,
  uniqueEmail,
} from './helpers/factories.ts';
import { codeIn, lastMailTo, verifyByMail } from './helpers/outbox.ts';

/**
 * The seven findings of the sign-in review (docs/security.md), each attacked again over HTTP against a real
 * server, on both databases. Each test is the attack; it passes because the attack now fails.
 */
const ADMIN = 'boss@example.com';

describe.each(TEST_DIALECTS)('sign-in attacks fail (%s)', (dialect) => {
  let server: TestServer;
  let flow: ReturnType<typeof emailSignIn>;
  const log = logCapture();
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ADMIN_EMAILS: ADMIN, LOG_LEVEL: 'info' }, logStream: log.stream });
    flow = emailSignIn(server);
  });
  afterAll(() => server.close());

  const me = async (accessToken: string) => fetch(`${server.url}/api/user/me`, { headers: bearer(accessToken) });
  const meOf = async (accessToken: string) => (await (await me(accessToken)).json()) as User;
  const refreshWith = (refreshToken: string) => postJson(server, '/api/auth/refresh', { refresh_token: refreshToken });
  const userRow = (email: string) =>
    server.ctx.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

  describe('1. impersonation through the built-in provider', () => {
    it("typing an address (the administrator's) signs nobody in: only the mailed link or code does", async () => {
      const jar = new CookieJar();
      const page = await flow.openSignInPage(jar);
      const sent = await flow.requestMail(jar, page.url, ADMIN);
      expect(sent.status).toBe(200);
      expect(sent.html).toContain('Check your e-mail');

      // The attacker does not read the administrator's mail: a guessed link and guessed codes get nowhere.
      const guessedLink = await jar.fetch(`${page.url.href}/link?token=guessed`);
      expect(guessedLink.status).toBe(400);
      const real = codeIn(await lastMailTo(server, ADMIN));
      const wrong = real === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++) {
        const res = await flow.postCode(jar, page.url, wrong);
        expect(res.status).toBe(422);
        expect(await res.text()).toContain('That code is not right');
      }
      // The fifth wrong guess kills the code: even the right one is refused afterwards.
      expect(await (await flow.postCode(jar, page.url, wrong)).text()).toContain('had too many wrong tries');
      const late = await flow.postCode(jar, page.url, real);
      expect(late.status).toBe(422);
      expect(await userRow(ADMIN)).toBeUndefined();
    });

    it('the mailed link works only in the browser that asked for it, and only once', async () => {
      const email = uniqueEmail('victim');
      const victim = new CookieJar();
      const page = await flow.openSignInPage(victim);
      await flow.requestMail(victim, page.url, email);

      // Someone who gets hold of the link (a forwarded mail, a proxy log) opens it in another browser.
      const attacker = new CookieJar();
      const link = (await lastMailTo(server, email)).text.match(/http\S+\/link\?token=\S+/)?.[0] ?? '';
      const elsewhere = await attacker.fetch(link);
      expect(elsewhere.status).toBe(400);
      expect(await elsewhere.text()).toContain('Type the code from the e-mail');

      const serverCallback = await flow.signInWithLink(victim, email);
      const query = await flow.finishAtServer(victim, serverCallback);
      expect((await flow.exchange(victim, query.get('code'))).status).toBe(200);
      // Spent.
      expect((await victim.fetch(link)).status).toBe(400);
    });

    it('an existing password account is not taken over by typing its address', async () => {
      const owner = await registerUser(server);
      const jar = new CookieJar();
      const page = await flow.openSignInPage(jar);
      await flow.requestMail(jar, page.url, owner.email);
      expect((await flow.postCode(jar, page.url, '123456')).status).toBe(422);
      const sessions = await server.ctx.db.kysely
        .selectFrom('refresh_tokens')
        .select('id')
        .where('user_id', '=', owner.id)
        .execute();
      expect(sessions).toHaveLength(1);
      expect((await me(owner.accessToken)).status).toBe(200);
    });
  });

  describe('2. password guessing', () => {
    it('wrong passwords lock the address for a while, even with the right password after', async () => {
      const user = await registerUser(server);
      for (let i = 0; i < 5; i++) {
        const res = await postJson(server, '/api/auth/login', { email: user.email, password: `wrong guess ${i}` });
        expect(res.status).toBe(401);
      }
      const locked = await postJson(server, '/api/auth/login', { email: user.email, password: user.password });
      expect(locked.status).toBe(429);
      expect(await locked.json()).toEqual({ detail: MESSAGES.server.tooManyFailedSignIns(15) });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address from the same client is unaffected, and the owner can still sign in by e-mail.
      const other = await registerUser(server);
      expect((await signIn(server, other.email)).id).toBe(other.id);
      expect(await server.ctx.tokens.verify((await flow.signInAs(user.email)).access_token)).toBe(user.id);
    });

    it.each([
      ['123456', VALIDATION.passwordNewMin],
      ['12345678', VALIDATION.passwordNewMin],
      ['1234567890', VALIDATION.passwordTooCommon],
      ['password12', VALIDATION.passwordTooCommon],
    ])('refuses the weak password %s', async (password, detail) => {
      const res = await postJson(server, '/api/auth/register', { email: uniqueEmail(), password });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ detail });
    });
  });

  describe('3. account pre-hijack', () => {
    it("a squatter's unverified account goes to the address's owner with the squatter's password and sessions void", async () => {
      const email = uniqueEmail('prehijack');
      const squatter = await registerUser(server, { email, verified: false });
      expect(await meOf(squatter.accessToken)).toMatchObject({ credits: 0 });

      // The owner signs in with the mailed link: same account, now verified, with the trial.
      const owner = await flow.signInAs(email);
      expect(await server.ctx.tokens.verify(owner.access_token)).toBe(squatter.id);
      expect(await meOf(owner.access_token)).toMatchObject({ email, credits: FREE_CREDITS_GRANT });

      // Whatever the squatter held is void: password, refresh token, and the access token still within its TTL.
      const login = await postJson(server, '/api/auth/login', { email, password: squatter.password });
      expect(login.status).toBe(401);
      expect((await refreshWith(squatter.refreshToken)).status).toBe(401);
      expect((await me(squatter.accessToken)).status).toBe(401);
      expect((await me(owner.access_token)).status).toBe(200);
    });

    it('registering an ADMIN_EMAILS address first does not make anyone administrator', async () => {
      const squatter = await registerUser(server, { email: ADMIN, verified: false });
      expect(await meOf(squatter.accessToken)).toMatchObject({ is_admin: false });
      // Library writes are for administrators: refused before the avatar is even looked up.
      const deleteAvatar = (token: string) =>
        fetch(`${server.url}/api/avatars/999999`, { method: 'DELETE', headers: bearer(token) });
      expect((await deleteAvatar(squatter.accessToken)).status).toBe(403);
      // The real administrator proves the address and is administrator from then on.
      const admin = await flow.signInAs(ADMIN);
      expect(await meOf(admin.access_token)).toMatchObject({ is_admin: true });
      expect((await deleteAvatar(admin.access_token)).status).toBe(404);
    });
  });

  describe('4. login CSRF through the callback URL', () => {
    it('the callback URL carries a one-time code, not tokens, and the code is useless in another browser', async () => {
      const attacker = new CookieJar();
      const page = await flow.openSignInPage(attacker);
      const email = uniqueEmail('attacker');
      await flow.requestMail(attacker, page.url, email);
      const query = await flow.finishAtServer(attacker, await flow.signInWithLink(attacker, email));
      expect(query.get('access_token')).toBeNull();
      expect(query.get('refresh_token')).toBeNull();
      const code = query.get('code');
      expect(code).toBeTruthy();

      // The victim's browser follows the attacker's link: no sign-in cookie of that flow, no tokens.
      const victim = new CookieJar();
      const stolen = await flow.exchange(victim, code);
      expect(stolen.status).toBe(401);
      expect(await stolen.json()).toEqual({ detail: MESSAGES.server.signInCodeInvalid });
      // Nor with a made-up cookie.
      const forged = await fetch(`${server.url}/api/auth/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'hookreel_signin=forged' },
        body: JSON.stringify({ code }),
      });
      expect(forged.status).toBe(401);

      // In the browser that signed in it works, once.
      const own = await flow.exchange(attacker, code);
      expect(own.status).toBe(200);
      TokenPair.parse(await own.json());
      expect((await flow.exchange(attacker, code)).status).toBe(401);
    });

    it('an exchange code is dead after its 60 seconds', async () => {
      const jar = new CookieJar();
      const page = await flow.openSignInPage(jar);
      const email = uniqueEmail('slow');
      await flow.requestMail(jar, page.url, email);
      const code = (await flow.finishAtServer(jar, await flow.signInWithLink(jar, email))).get('code');
      await server.ctx.db.kysely
        .updateTable('one_time_codes')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('purpose', '=', 'exchange')
        .execute();
      expect((await flow.exchange(jar, code)).status).toBe(401);
    });
  });

  describe('5. tokens in URLs and logs', () => {
    it('refuses ?access_token= on every API route and opens the event stream only with a short ticket', async () => {
      const user = await registerUser(server);
      for (const path of ['/api/user/me', '/api/projects/', '/api/jobs/', '/api/jobs/events']) {
        const res = await fetch(`${server.url}${path}?access_token=${user.accessToken}`);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ detail: MESSAGES.server.accessTokenInUrl });
      }
      const ticketRes = await fetch(`${server.url}/api/jobs/events/ticket`, {
        method: 'POST',
        headers: user.authHeader,
      });
      expect(ticketRes.status).toBe(200);
      const { ticket, expires_in } = (await ticketRes.json()) as { ticket: string; expires_in: number };
      expect(expires_in).toBeLessThanOrEqual(60);
      const stream = new AbortController();
      const opened = await fetch(`${server.url}/api/jobs/events?ticket=${ticket}`, { signal: stream.signal });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toMatch(/text\/event-stream/);
      stream.abort();
      // Single purpose: a ticket is no access token, and an access token is no ticket.
      expect((await me(ticket)).status).toBe(401);
      expect((await fetch(`${server.url}/api/jobs/events?ticket=${user.accessToken}`)).status).toBe(401);
    });

    it('the log shows no token, code or ticket, and no authorization header or cookie', async () => {
      const jar = new CookieJar();
      const page = await flow.openSignInPage(jar);
      const email = uniqueEmail('logs');
      await flow.requestMail(jar, page.url, email);
      const serverCallback = await flow.signInWithLink(jar, email);
      const query = await flow.finishAtServer(jar, serverCallback);
      const code = query.get('code') ?? '';
      const pair = TokenPair.parse(await (await flow.exchange(jar, code)).json());
      const rotated = TokenPair.parse(await (await refreshWith(pair.refresh_token)).json());
      const ticket = (
        (await (
          await fetch(`${server.url}/api/jobs/events/ticket`, { method: 'POST', headers: bearer(rotated.access_token) })
        ).json()) as { ticket: string }
      ).ticket;
      const stream = new AbortController();
      await fetch(`${server.url}/api/jobs/events?ticket=${ticket}`, { signal: stream.signal });
      stream.abort();
      await fetch(`${server.url}/api/user/me?access_token=${rotated.access_token}`);
      await verifyByMail(server, (await registerUser(server, { verified: false })).email);

      const text = log.text();
      expect(text).toContain('?[redacted]');
      for (const secret of [
        code,
        serverCallback.searchParams.get('code') ?? '',
        pair.access_token,
        pair.refresh_token,
        rotated.access_token,
        ticket,
      ]) {
        expect(secret.length).toBeGreaterThan(10);
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(/token=[A-Za-z0-9_-]{20}/);
      expect(text).not.toMatch(/"authorization"|"cookie"/i);
    });
  });

  describe('6. credit farming', () => {
    it('an unverified account gets no trial and cannot spend credits', async () => {
      const farmer = await registerUser(server, { verified: false });
      expect(await meOf(farmer.accessToken)).toMatchObject({ credits: 0 });
      // Even given credits (a grant by some other means), it cannot spend them before verifying.
      const row = await userRow(farmer.email);
      await server.ctx.db.kysely
        .updateTable('users')
        .set({ credits_available: 500 })
        .where('id', '=', row!.id)
        .execute();
      const project = await createProjectOverHttp(server, farmer, 'Farm');
      const queued = await fetch(`${server.url}/api/jobs/${project}/queue`, {
        method: 'POST',
        headers: farmer.authHeader,
      });
      expect(queued.status).toBe(403);
      expect(await queued.json()).toEqual({ detail: MESSAGES.server.emailNotVerified });
    });

    it('deleting the account and registering the address again (or a +tag of it) grants nothing', async () => {
      const email = uniqueEmail('again');
      const first = await registerUser(server, { email });
      expect(await meOf(first.accessToken)).toMatchObject({ credits: FREE_CREDITS_GRANT });
      expect((await fetch(`${server.url}/api/user/me`, { method: 'DELETE', headers: first.authHeader })).status).toBe(
        204,
      );

      const second = await registerUser(server, { email });
      expect(await meOf(second.accessToken)).toMatchObject({ credits: 0 });
      const tagged = email.replace('@', '+2@');
      const third = await registerUser(server, { email: tagged });
      expect(await meOf(third.accessToken)).toMatchObject({ credits: 0 });
      // The kept record is a salted hash, not the address.
      const kept = await server.ctx.db.kysely.selectFrom('trial_claims').select('email_hash').execute();
      expect(kept.map((k) => k.email_hash).join(',')).not.toContain(email.split('@')[0]);
    });
  });

  describe('7. security policy on a plain-HTTP host', () => {
    it('sends no upgrade-insecure-requests and no HSTS over plain HTTP, whatever the host name', async () => {
      const res = await fetch(`${server.url}/api/health`, { headers: { host: 'hookreel.lan:3000' } });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    });
  });
});

describe.each(TEST_DIALECTS)('limits that X-Forwarded-For cannot dodge (%s)', (dialect) => {
  let plain: TestServer;
  let proxied: TestServer;
  let https: TestServer;
  const limits = { AUTH_RATE_LIMIT: '5', REGISTER_RATE_LIMIT: '3' };
  beforeAll(async () => {
    plain = await startTestServer({ dialect, env: limits });
    proxied = await startTestServer({ dialect, env: { ...limits, TRUST_PROXY: '1' } });
    https = await startTestServer({ dialect, env: { PUBLIC_URL: 'https://hookreel.example' } });
  });
  afterAll(async () => {
    await plain.close();
    await proxied.close();
    await https.close();
  });

  const loginFrom = (server: TestServer, forwardedFor: string) =>
    postJson(
      server,
      '/api/auth/login',
      { email: uniqueEmail(), password: TEST_PASSWORD },
      { 'x-forwarded-for': forwardedFor },
    );

  it('2. without TRUST_PROXY a new X-Forwarded-For per request changes nothing: the sixth guess is refused', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await loginFrom(plain, `203.0.113.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('2. with TRUST_PROXY=1 the proxy-reported client counts (each client its own limit, the same one limited)', async () => {
    for (let i = 0; i < 6; i++) expect((await loginFrom(proxied, `198.51.100.${i}`)).status).toBe(401);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await loginFrom(proxied, '198.51.100.200')).status);
    expect(statuses.at(-1)).toBe(429);
  });

  it('6. one client cannot mass-register, whatever X-Forwarded-For says', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await postJson(
        plain,
        '/api/auth/register',
        { email: uniqueEmail('farm'), password: TEST_PASSWORD },
        { 'x-forwarded-for': `192.0.2.${i}` },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('7. with an https PUBLIC_URL the policy upgrades requests and HSTS is sent', async () => {
    const res = await fetch(`${https.url}/api/health`);
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});
