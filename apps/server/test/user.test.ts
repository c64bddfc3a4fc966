import { MESSAGES } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { bearer, postJson, registerUser } from './helpers/factories.ts';

describe.each(TEST_DIALECTS)('the current user (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ADMIN_EMAILS: 'Boss@Example.com' } });
  });
  afterAll(() => server.close());

  it('requires a valid bearer token', async () => {
    for (const headers of [{}, bearer('not-a-jwt'), { authorization: 'Basic abc' }]) {
      const res = await fetch(`${server.url}/api/user/me`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: MESSAGES.server.unauthorized });
    }
    const put = await fetch(`${server.url}/api/user/me/notify`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notify: true }),
    });
    expect(put.status).toBe(401);
    expect((await fetch(`${server.url}/api/user/me`, { method: 'DELETE' })).status).toBe(401);
  });

  it('returns the account in the contracts shape', async () => {
    const user = await registerUser(server);
    const body = (await (await fetch(`${server.url}/api/user/me`, { headers: user.authHeader })).json()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body).sort()).toEqual(['created_at', 'credits', 'email', 'id', 'is_admin', 'notify']);
    expect(body.id).toBe(user.id);
    expect(Number.isNaN(Date.parse(String(body.created_at)))).toBe(false);
  });

  it('marks the configured admin e-mail addresses', async () => {
    const boss = await registerUser(server, { email: 'boss@example.com' });
    const body = (await (await fetch(`${server.url}/api/user/me`, { headers: boss.authHeader })).json()) as {
      is_admin: boolean;
    };
    expect(body.is_admin).toBe(true);
  });

  it('toggles notifications', async () => {
    const user = await registerUser(server);
    const put = (notify: unknown) =>
      fetch(`${server.url}/api/user/me/notify`, {
        method: 'PUT',
        headers: { ...user.authHeader, 'content-type': 'application/json' },
        body: JSON.stringify({ notify }),
      });
    const on = await put(true);
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ notify: true });
    let current = (await (await fetch(`${server.url}/api/user/me`, { headers: user.authHeader })).json()) as {
      notify: boolean;
    };
    expect(current.notify).toBe(true);

    expect(await (await put(false)).json()).toEqual({ notify: false });
    current = (await (await fetch(`${server.url}/api/user/me`, { headers: user.authHeader })).json()) as {
      notify: boolean;
    };
    expect(current.notify).toBe(false);

    expect((await put('yes')).status).toBe(422);
  });

  it('deletes the account with its rows, files and sessions', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    await server.ctx.files.put(`users/${user.id}/photos/a.png`, Buffer.from('png'), 'image/png');
    await server.ctx.files.put(`users/${other.id}/b.png`, Buffer.from('png'), 'image/png');

    const res = await fetch(`${server.url}/api/user/me`, { method: 'DELETE', headers: user.authHeader });
    expect(res.status).toBe(204);

    const db = server.ctx.db.kysely;
    expect(await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await server.ctx.files.exists(`users/${user.id}/photos/a.png`)).toBe(false);
    expect(await server.ctx.files.exists(`users/${other.id}/b.png`)).toBe(true);

    expect((await fetch(`${server.url}/api/user/me`, { headers: user.authHeader })).status).toBe(401);
    expect((await postJson(server, '/api/auth/refresh', { refresh_token: user.refreshToken })).status).toBe(401);
    expect((await postJson(server, '/api/auth/login', { email: user.email, password: user.password })).status).toBe(
      401,
    );
    // The address is free again.
    expect((await registerUser(server, { email: user.email })).id).not.toBe(user.id);
    // Others are untouched.
    expect((await fetch(`${server.url}/api/user/me`, { headers: other.authHeader })).status).toBe(200);
  });
});
