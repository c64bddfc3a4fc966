import { FREE_CREDITS_GRANT, MESSAGES, VALIDATION } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { bearer, postJson, registerUser, signIn, TEST_PASSWORD, uniqueEmail } from './helpers/factories.ts';
import { lastMailTo, linkIn, verifyByMail } from './helpers/outbox.ts';

describe.each(TEST_DIALECTS)('e-mail accounts and tokens (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  const me = (accessToken: string) => fetch(`${t.server.url}/api/user/me`, { headers: bearer(accessToken) });
  const refresh = (refreshToken: string) => postJson(t.server, '/api/auth/refresh', { refresh_token: refreshToken });

  it('registers an account, signs it in, and grants the free credits once the mailed link is opened', async () => {
    const email = uniqueEmail();
    const res = await postJson(t.server, '/api/auth/register', { email, password: TEST_PASSWORD });
    expect(res.status).toBe(201);
    const pair = (await res.json()) as { access_token: string; refresh_token: string };
    expect(pair.access_token.split('.')).toHaveLength(3);
    expect(pair.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const before = (await (await me(pair.access_token)).json()) as Record<string, unknown>;
    expect(before).toMatchObject({ email, credits: 0, notify: false, is_admin: false });

    const mail = await lastMailTo(t.server, email);
    expect(mail.subject).toBe('Confirm your e-mail address for Hookreel');
    const verified = await verifyByMail(t.server, email);
    expect(verified.status).toBe(200);
    expect(await verified.text()).toContain('E-mail address confirmed');
    const after = (await (await me(pair.access_token)).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ credits: FREE_CREDITS_GRANT });

    // The link works once.
    const again = await fetch(linkIn(mail, `${t.server.url}/api/auth/verify-email`));
    expect(again.status).toBe(400);
    expect(((await (await me(pair.access_token)).json()) as { credits: number }).credits).toBe(FREE_CREDITS_GRANT);
  });

  it('stores only a hash of the password and of the refresh token', async () => {
    const user = await registerUser(t.server);
    const row = await t.server.ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const tokens = await t.server.ctx.db.kysely
      .selectFrom('refresh_tokens')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(tokens.map((t) => t.token_hash)).not.toContain(user.refreshToken);
  });

  it('refuses a second account with the same e-mail, whatever its case', async () => {
    const user = await registerUser(t.server);
    const res = await postJson(t.server, '/api/auth/register', {
      email: user.email.toUpperCase(),
      password: 'another long passphrase',
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ detail: MESSAGES.server.emailTaken });
  });

  it.each([
    [{ email: 'not-an-email', password: TEST_PASSWORD }, VALIDATION.email],
    [{ email: uniqueEmail(), password: '12345' }, VALIDATION.passwordMin],
  ])('answers 422 with the documented message for %o', async (body, detail) => {
    for (const path of ['/api/auth/register', '/api/auth/login']) {
      const res = await postJson(t.server, path, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toBe(detail);
    }
  });

  it.each([
    ['123456789', VALIDATION.passwordNewMin],
    ['1234567890', VALIDATION.passwordTooCommon],
    ['password123', VALIDATION.passwordTooCommon],
    ['qwertyuiop', VALIDATION.passwordTooCommon],
  ])('refuses the new password %s with a clear message, and creates nothing', async (password, detail) => {
    const email = uniqueEmail();
    const res = await postJson(t.server, '/api/auth/register', { email, password });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toBe(detail);
    const row = await t.server.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('logs in with the right password only, with one message for every failure', async () => {
    const user = await registerUser(t.server);
    const again = await signIn(t.server, ` ${user.email.toUpperCase()} `);
    expect(again.id).toBe(user.id);

    for (const body of [
      { email: user.email, password: 'wrong-password' },
      { email: uniqueEmail('nobody'), password: TEST_PASSWORD },
    ]) {
      const res = await postJson(t.server, '/api/auth/login', body);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: MESSAGES.server.invalidCredentials });
    }
  });

  it('rotates the refresh token on every refresh', async () => {
    const user = await registerUser(t.server);
    const res = await refresh(user.refreshToken);
    expect(res.status).toBe(200);
    const next = (await res.json()) as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(user.refreshToken);
    expect((await me(next.access_token)).status).toBe(200);
    expect((await refresh(next.refresh_token)).status).toBe(200);
  });

  it('revokes the whole family when a used refresh token comes back, and only that family', async () => {
    const user = await registerUser(t.server);
    const otherSession = await signIn(t.server, user.email);
    const second = (await (await refresh(user.refreshToken)).json()) as { refresh_token: string };

    const replay = await refresh(user.refreshToken);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ detail: MESSAGES.server.invalidRefreshToken });
    // The thief's copy and the rightful owner's latest token are both dead now.
    expect((await refresh(second.refresh_token)).status).toBe(401);
    // A separate sign-in (another device) is untouched.
    expect((await refresh(otherSession.refreshToken)).status).toBe(200);
  });

  it('lets exactly one of two concurrent refreshes with the same token win', async () => {
    const user = await registerUser(t.server);
    const statuses = (await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it('answers 401 for unknown, malformed or missing refresh tokens', async () => {
    expect((await refresh('x'.repeat(43))).status).toBe(401);
    const missing = await postJson(t.server, '/api/auth/refresh', {});
    expect(missing.status).toBe(422);
  });

  it('ends the session on logout, and logout always succeeds', async () => {
    const user = await registerUser(t.server);
    const rotated = (await (await refresh(user.refreshToken)).json()) as { refresh_token: string };
    const res = await postJson(t.server, '/api/auth/logout', { refresh_token: rotated.refresh_token });
    expect(res.status).toBe(204);
    expect((await refresh(rotated.refresh_token)).status).toBe(401);

    expect((await postJson(t.server, '/api/auth/logout', { refresh_token: 'unknown' })).status).toBe(204);
    expect((await postJson(t.server, '/api/auth/logout', {})).status).toBe(204);
    expect((await fetch(`${t.server.url}/api/auth/logout`, { method: 'POST' })).status).toBe(204);
  });

  it('does not accept access tokens signed with another secret', async () => {
    const { createAccessTokenSigner } = await import('../src/auth/access-token.ts');
    const forged = await createAccessTokenSigner('a-completely-different-secret-of-32+chars', 60).sign(1);
    const res = await me(forged);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: MESSAGES.server.unauthorized });
  });
});

describe('rate limit on sign-in calls', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { AUTH_RATE_LIMIT: '3' } });
  });
  afterAll(() => server.close());

  it('answers 429 {detail} once an IP exceeds the limit', async () => {
    const attempt = () => postJson(server, '/api/auth/login', { email: uniqueEmail(), password: TEST_PASSWORD });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ detail: MESSAGES.server.rateLimited });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
