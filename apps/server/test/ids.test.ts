import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { collectRoutes, type RouteInfo } from './helpers/route-inventory.ts';

/**
 * Ids in URLs are canonical decimal only, and every id that is not (or names nothing) answers one plain 404:
 * no parser wording ("expected number, received NaN", "Too big: expected int…"), no 422 on some routes and 404
 * on others. Path parameters are taken from the app's own route table, so a route added later is covered too.
 */
const BAD_IDS = ['01', '1e3', '+1', ' 1', '1 ', '-1', '0', '1.0', '0x1', 'abc', '2147483648', '99999999999999999999'];

/** Query parameters that carry ids: route → a query string with `{id}` where the id goes. */
const QUERY_IDS: Array<{ method: string; path: string; query: string }> = [
  { method: 'GET', path: '/api/avatars', query: 'project_id={id}' },
  { method: 'POST', path: '/api/hooks/process-product', query: 'hook_pack_id={id}' },
  { method: 'POST', path: '/api/hooks/generate-characters', query: 'hook_pack_id={id}' },
  { method: 'POST', path: '/api/hooks/generate-characters', query: 'hook_pack_id=1&character_type_id={id}' },
];

describe.each(TEST_DIALECTS)('ids in URLs (%s)', (dialect) => {
  let server: TestServer;
  let user: TestUser;
  let routes: RouteInfo[];

  beforeAll(async () => {
    ({ result: server, routes } = await collectRoutes(() => startTestServer({ dialect })));
    user = await registerUser(server);
  });
  afterAll(() => server?.close());

  const call = (method: string, url: string) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: {
        ...user.authHeader,
        ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
      },
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
    });

  it('every route with an id in its path answers a plain 404 to every malformed or out-of-range id', async () => {
    const withId = routes.filter((r) => /:(id|projectId)\b/.test(r.url));
    expect(withId.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const route of withId) {
      for (const bad of BAD_IDS) {
        const url = route.url.replace(/:(id|projectId)\b/, encodeURIComponent(bad));
        const res = await call(route.method, url);
        const body = (await res.json()) as { detail?: string };
        if (res.status !== 404 || body.detail !== 'Not found') {
          wrong.push(`${route.method} ${url} → ${res.status} ${JSON.stringify(body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('ids in the query string answer the same plain 404', async () => {
    const wrong: string[] = [];
    for (const { method, path, query } of QUERY_IDS) {
      for (const bad of [...BAD_IDS, '']) {
        const url = `${path}?${query.replace('{id}', encodeURIComponent(bad))}`;
        const res = await call(method, url);
        const body = (await res.json()) as { detail?: string };
        if (res.status !== 404 || body.detail !== 'Not found') {
          wrong.push(`${method} ${url} → ${res.status} ${JSON.stringify(body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a canonical id of nothing is a plain 404, and a canonical id of something still works', async () => {
    const missing = await call('GET', '/api/projects/2147483647');
    expect(missing.status).toBe(404);
    // The resource's own wording (a message from contracts) is fine here: it is plain, and the id was well-formed.
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/^[A-Z][a-z ]+ not found$|^Not found$/);
    const id = await createProjectOverHttp(server, user, 'Id test');
    expect((await call('GET', `/api/projects/${id}`)).status).toBe(200);
  });
});
