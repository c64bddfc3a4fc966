import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, INTEGRATION_LIMITS, INTEGRATION_MESSAGES, MESSAGES } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { bearer, createProjectOverHttp, postJson, registerUser, type TestUser } from './helpers/factories.ts';

interface Created {
  id: number;
  name: string;
  prefix: string;
  key: string;
  created_at: string;
  last_used_at: string | null;
}

async function createKey(server: TestServer, user: TestUser, name = 'CI pipeline'): Promise<Created> {
  const res = await postJson(server, '/api/api-keys', { name }, user.authHeader);
  expect(res.status).toBe(201);
  return (await res.json()) as Created;
}

/** A small per-key budget, so the limit is reached quickly; ample for any one test's other calls. */
const PER_MINUTE = 12;

const get = (server: TestServer, path: string, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, { headers });

describe.each(TEST_DIALECTS)('personal API keys (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { API_KEY_RATE_LIMIT: String(PER_MINUTE) } });
  });
  afterAll(() => server.close());

  it('creates a key shown once, stores only its hash, and lists it without the secret', async () => {
    const user = await registerUser(server);
    const created = await createKey(server, user, '  Zapier  ');
    expect(created.name).toBe('Zapier');
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(created.key.length).toBeGreaterThan(40);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.last_used_at).toBeNull();

    const list = (await (await get(server, '/api/api-keys', user.authHeader)).json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(Object.keys(list[0]!).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'prefix', 'scope']);
    expect(JSON.stringify(list)).not.toContain(created.key);

    const row = await server.ctx.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key);
  });

  it('works as a Bearer token on the routes its owner can use, with the same ownership checks', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const { key } = await createKey(server, owner);
    const asKey = bearer(key);

    const me = (await (await get(server, '/api/user/me', asKey)).json()) as { id: number };
    expect(me.id).toBe(owner.id);

    // A project made with the key belongs to the key's owner; the other user's project stays out of reach.
    const mine = await createProjectOverHttp(server, { ...owner, authHeader: asKey }, 'Made with a key');
    const theirs = await createProjectOverHttp(server, other, 'Not yours');
    expect((await get(server, `/api/projects/${mine}`, owner.authHeader)).status).toBe(200);
    expect((await get(server, `/api/projects/${mine}`, asKey)).status).toBe(200);
    const foreign = await get(server, `/api/projects/${theirs}`, asKey);
    expect(foreign.status).toBe(404);
    // Exactly what the owner's session gets for it.
    const viaSession = await get(server, `/api/projects/${theirs}`, owner.authHeader);
    expect(viaSession.status).toBe(404);
    expect(await foreign.json()).toEqual(await viaSession.json());

    const keys = (await (await get(server, '/api/api-keys', owner.authHeader)).json()) as Created[];
    expect(keys[0]!.last_used_at).not.toBeNull();
  });

  it('cannot manage keys, webhooks or the account: those need a signed-in session', async () => {
    const user = await registerUser(server);
    const { key } = await createKey(server, user);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys', { name: 'successor' }],
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks', { url: 'https://example.com/hook' }],
      ['GET', '/api/webhooks/deliveries'],
      ['DELETE', '/api/user/me'],
    ];
    for (const [method, path, body] of calls) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...bearer(key), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ detail: INTEGRATION_MESSAGES.sessionOnly });
    }
    expect((await get(server, '/api/user/me', user.authHeader)).status).toBe(200);
  });

  it('revokes a key at once; another user cannot revoke it', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const created = await createKey(server, owner);
    const del = (who: TestUser) =>
      fetch(`${server.url}/api/api-keys/${created.id}`, { method: 'DELETE', headers: who.authHeader });
    expect((await del(other)).status).toBe(404);
    expect((await get(server, '/api/user/me', bearer(created.key))).status).toBe(200);
    expect((await del(owner)).status).toBe(204);
    const after = await get(server, '/api/user/me', bearer(created.key));
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ detail: MESSAGES.server.unauthorized });
    expect((await del(owner)).status).toBe(404);
    expect(await (await get(server, '/api/api-keys', owner.authHeader)).json()).toEqual([]);
  });

  it('refuses made-up and malformed keys', async () => {
    for (const token of [`${API_KEY_PREFIX}nope`, `${API_KEY_PREFIX}`, `${API_KEY_PREFIX}${'a'.repeat(43)}`]) {
      expect((await get(server, '/api/user/me', bearer(token))).status).toBe(401);
    }
  });

  it('limits each key to its requests a minute, separately from the owner’s other keys', async () => {
    const user = await registerUser(server);
    const first = await createKey(server, user, 'busy');
    const second = await createKey(server, user, 'quiet');
    for (let i = 0; i < PER_MINUTE; i++)
      expect((await get(server, '/api/user/me', bearer(first.key))).status).toBe(200);
    const limited = await get(server, '/api/user/me', bearer(first.key));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ detail: INTEGRATION_MESSAGES.apiKeyRateLimited(PER_MINUTE) });
    expect((await get(server, '/api/user/me', bearer(second.key))).status).toBe(200);
    // The session is not counted against the key.
    expect((await get(server, '/api/user/me', user.authHeader)).status).toBe(200);
  });

  it('checks the name and the number of active keys', async () => {
    const user = await registerUser(server);
    const blank = await postJson(server, '/api/api-keys', { name: '   ' }, user.authHeader);
    expect(blank.status).toBeGreaterThanOrEqual(400);
    expect(((await blank.json()) as { detail: string }).detail).toContain(INTEGRATION_MESSAGES.apiKeyNameRequired);
    const long = await postJson(server, '/api/api-keys', { name: 'x'.repeat(61) }, user.authHeader);
    expect(long.status).toBeGreaterThanOrEqual(400);

    const made: Created[] = [];
    for (let i = 0; i < INTEGRATION_LIMITS.apiKeysPerUser; i++) made.push(await createKey(server, user, `k${i}`));
    const over = await postJson(server, '/api/api-keys', { name: 'one too many' }, user.authHeader);
    expect(over.status).toBe(409);
    expect(await over.json()).toEqual({ detail: INTEGRATION_MESSAGES.apiKeysLimit });
    await fetch(`${server.url}/api/api-keys/${made[0]!.id}`, { method: 'DELETE', headers: user.authHeader });
    await createKey(server, user, 'after revoking one');
  });

  it('stops working when the account is deleted', async () => {
    const user = await registerUser(server);
    const { key } = await createKey(server, user);
    expect((await fetch(`${server.url}/api/user/me`, { method: 'DELETE', headers: user.authHeader })).status).toBe(204);
    expect((await get(server, '/api/user/me', bearer(key))).status).toBe(401);
  });
});
