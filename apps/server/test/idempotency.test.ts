import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsRepository } from '../src/db/repositories/projects.ts';
import { grantCredits, ledgerBalances } from '../src/services/billing/credits.ts';
import { IDEMPOTENCY_MESSAGES } from '../src/services/platform/idempotency.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, selectFirstActor, TEST_SCRIPT, type TestUser } from './helpers/factories.ts';
import { formData, pngImage } from './helpers/images.ts';
import { call, drainCredits, fakeApprovedPreview, packWithCharacters, productPhoto } from './hook-helpers.ts';

/** One credit-spending request, built afresh for every send (a multipart body is a stream). */
interface Req {
  method: 'POST';
  path: string;
  body?: () => unknown;
}

/** A spending route with a valid request, another valid request (same route) and the first response's status. */
interface SpendCase {
  name: string;
  setup(server: TestServer, user: TestUser): Promise<{ request: Req; different: Req; status: number }>;
}

async function send(server: TestServer, user: TestUser, req: Req, key?: string) {
  const headers: Record<string, string> = { ...user.authHeader };
  if (key !== undefined) headers['idempotency-key'] = key;
  const body = req.body?.();
  const init: RequestInit = { method: req.method, headers };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`${server.url}${req.path}`, init);
  return { status: res.status, json: (await res.json()) as unknown, replayed: res.headers.get('idempotent-replayed') };
}

/** What the user has spent so far: their holds (no runner here, so every hold stays held) and their jobs. */
async function spending(server: TestServer, userId: number) {
  const db = server.ctx.db.kysely;
  const holds = await db
    .selectFrom('credit_holds')
    .select(['amount'])
    .where('user_id', '=', userId)
    .where('operation', '!=', 'test-drain')
    .execute();
  const jobs = await db.selectFrom('jobs').select('id').where('user_id', '=', userId).execute();
  const b = await ledgerBalances(db, userId);
  expect(b.granted).toBe(b.available + b.held + b.consumed);
  return { holds: holds.length, amount: holds.reduce((s, h) => s + h.amount, 0), jobs: jobs.length };
}

async function newProject(server: TestServer, user: TestUser, withProduct: boolean): Promise<number> {
  const parts: Parameters<typeof formData>[0] = [{ name: 'name', value: 'Serum launch' }];
  if (withProduct)
    parts.push({
      name: 'file',
      file: await productPhoto({ transparent: true }),
      filename: 'serum.png',
      type: 'image/png',
    });
  const res = await call(server, user, 'POST', '/api/projects/', formData(parts));
  expect(res.status).toBe(200);
  const id = res.json.id as number;
  expect((await call(server, user, 'PUT', `/api/projects/${id}`, { script: TEST_SCRIPT })).status).toBe(200);
  await selectFirstActor(server.url, user.authHeader, id);
  return id;
}

/** A pack with a product, a hook, one type and two (pending) characters. Jobs never run in this file. */
const newPack = (server: TestServer, user: TestUser) => packWithCharacters(server, user, { name: 'Idem', count: 2 });

const CASES: SpendCase[] = [
  {
    name: 'POST /jobs/{projectId}/queue',
    async setup(server, user) {
      const [a, b] = [await newProject(server, user, false), await newProject(server, user, false)];
      return {
        request: { method: 'POST', path: `/api/jobs/${a}/queue` },
        different: { method: 'POST', path: `/api/jobs/${b}/queue` },
        status: 201,
      };
    },
  },
  {
    name: 'POST /hooks/generate-characters',
    async setup(server, user) {
      const { id } = await newPack(server, user);
      return {
        // 'Generate More' (the pack's type already has its people: repeating the type's own is refused).
        request: { method: 'POST', path: `/api/hooks/generate-characters?hook_pack_id=${id}&count=2&description=dad` },
        different: {
          method: 'POST',
          path: `/api/hooks/generate-characters?hook_pack_id=${id}&count=3&description=dad`,
        },
        status: 200,
      };
    },
  },
  {
    name: 'POST /hooks/generate-preview (JSON)',
    async setup(server, user) {
      const { id, characters } = await newPack(server, user);
      const path = '/api/hooks/generate-preview';
      return {
        request: { method: 'POST', path, body: () => ({ hook_pack_id: id, character_ids: [characters[0]] }) },
        different: { method: 'POST', path, body: () => ({ hook_pack_id: id, character_ids: [characters[1]] }) },
        status: 200,
      };
    },
  },
  {
    name: 'POST /hooks/generate-preview (multipart, from the editor)',
    async setup(server, user) {
      const { id, characters } = await newPack(server, user);
      const mask = await pngImage(32, 32);
      const form = (x: string) => () =>
        formData([
          { name: 'hook_pack_id', value: String(id) },
          { name: 'generated_character_id', value: String(characters[0]) },
          { name: 'position_x', value: x },
          { name: 'mask_image', file: mask, filename: 'mask.png', type: 'image/png' },
        ]);
      const path = '/api/hooks/generate-preview';
      return {
        request: { method: 'POST', path, body: form('300') },
        different: { method: 'POST', path, body: form('310') },
        status: 200,
      };
    },
  },
  {
    name: 'POST /hooks/preview/{id}/regenerate',
    async setup(server, user) {
      const { id, characters } = await newPack(server, user);
      // A finished preview: regenerating one still being made is refused (409) whatever the key.
      const previewId = await fakeApprovedPreview(server, id, characters[0]!);
      return {
        request: { method: 'POST', path: `/api/hooks/preview/${previewId}/regenerate?reason=product` },
        different: { method: 'POST', path: `/api/hooks/preview/${previewId}/regenerate?reason=person` },
        status: 200,
      };
    },
  },
  {
    name: 'POST /jobs/hook-pack/{id}/queue-videos',
    async setup(server, user) {
      const { id, characters } = await newPack(server, user);
      await fakeApprovedPreview(server, id, characters[0]!);
      const path = `/api/jobs/hook-pack/${id}/queue-videos`;
      const body = (hook: string) => () => ({
        variants: [{ index: 1, generated_character_id: characters[0], hook_text: hook }],
      });
      return {
        request: { method: 'POST', path, body: body('Glow all day') },
        different: { method: 'POST', path, body: body('Glow all night') },
        status: 200,
      };
    },
  },
  {
    name: 'POST /merge/single',
    async setup(server, user) {
      const projectId = await newProject(server, user, true);
      const actors = (await call(server, user, 'GET', `/api/avatars/?project_id=${projectId}`)).json as Array<{
        id: number;
      }>;
      expect(actors.length).toBeGreaterThanOrEqual(2);
      const form = (avatarId: number) => () =>
        formData([
          { name: 'project_id', value: String(projectId) },
          { name: 'character_id', value: String(avatarId) },
          { name: 'mask_data', value: JSON.stringify({ position_x: 300, position_y: 640, scale: 0.3, rotation: 0 }) },
        ]);
      return {
        request: { method: 'POST', path: '/api/merge/single', body: form(actors[0]!.id) },
        different: { method: 'POST', path: '/api/merge/single', body: form(actors[1]!.id) },
        status: 200,
      };
    },
  },
  {
    name: 'POST /jobs/product-in-hand/{projectId}/queue-videos',
    async setup(server, user) {
      const ready = async () => {
        const projectId = await newProject(server, user, true);
        expect(
          (await call(server, user, 'PUT', `/api/projects/${projectId}`, { script: 'Try it today.' })).status,
        ).toBe(200);
        const actors = (await call(server, user, 'GET', `/api/avatars/?project_id=${projectId}`)).json as Array<{
          id: number;
        }>;
        // One actor merged, as if its merge job had run.
        await projectsRepository.setMergeState(server.ctx.db.kysely, projectId, actors[0]!.id, {
          status: 'merged',
          mergedKey: 'users/0/merged/fake.png',
        });
        return projectId;
      };
      const [a, b] = [await ready(), await ready()];
      return {
        request: { method: 'POST', path: `/api/jobs/product-in-hand/${a}/queue-videos` },
        different: { method: 'POST', path: `/api/jobs/product-in-hand/${b}/queue-videos` },
        status: 200,
      };
    },
  },
];

for (const dialect of TEST_DIALECTS) {
  describe(`Idempotency-Key on every credit-spending call (${dialect})`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dialect });
    }, 60_000);
    afterAll(() => server?.close());

    for (const c of CASES) {
      it(`${c.name}: concurrent repeats and replays get the first response and spend once; another request is 409`, async () => {
        const user = await registerUser(server);
        const { request, different, status } = await c.setup(server, user);
        const before = await spending(server, user.id);
        const key = `click-${c.name}`;

        const first = await Promise.all(Array.from({ length: 4 }, () => send(server, user, request, key)));
        expect(first.map((r) => r.status)).toEqual([status, status, status, status]);
        for (const r of first) expect(r.json).toEqual(first[0]!.json);
        expect(first.filter((r) => r.replayed === null)).toHaveLength(1);
        const once = await spending(server, user.id);
        expect(once.holds).toBe(before.holds + 1);
        expect(once.jobs).toBe(before.jobs + 1);

        const later = await send(server, user, request, key);
        expect(later).toEqual({ status, json: first[0]!.json, replayed: 'true' });

        const other = await send(server, user, different, key);
        expect(other).toMatchObject({ status: 409, json: { detail: IDEMPOTENCY_MESSAGES.reused } });
        expect(await spending(server, user.id)).toEqual(once);
      });
    }

    it('a key is one request across routes, and its length is checked', async () => {
      const user = await registerUser(server);
      const projectId = await newProject(server, user, false);
      const queue: Req = { method: 'POST', path: `/api/jobs/${projectId}/queue` };
      expect((await send(server, user, queue, 'shared')).status).toBe(201);
      const { id } = await newPack(server, user);
      const gen: Req = { method: 'POST', path: `/api/hooks/generate-characters?hook_pack_id=${id}&count=1` };
      expect(await send(server, user, gen, 'shared')).toMatchObject({ status: 409 });

      const before = await spending(server, user.id);
      expect((await send(server, user, queue, 'k'.repeat(201))).status).toBe(422);
      expect((await send(server, user, queue, '')).status).toBe(422);
      expect(await spending(server, user.id)).toEqual(before);
      expect((await send(server, user, queue, 'k'.repeat(200))).status).toBe(201);

      // Keys belong to a user: another user's identical key is a request of their own.
      const other = await registerUser(server);
      const theirs = await newProject(server, other, false);
      expect((await send(server, other, { method: 'POST', path: `/api/jobs/${theirs}/queue` }, 'shared')).status).toBe(
        201,
      );
    });

    it('a failed first request (402) spends nothing and frees its key: the retry after a top-up runs once', async () => {
      const user = await registerUser(server);
      const projectId = await newProject(server, user, false);
      await drainCredits(server, user.id);
      const queue: Req = { method: 'POST', path: `/api/jobs/${projectId}/queue` };
      const short = await send(server, user, queue, 'retry-me');
      expect(short.status).toBe(402);
      expect((await spending(server, user.id)).holds).toBe(0);

      await grantCredits(server.ctx.db.kysely, user.id, 100, 'top-up');
      const paid = await send(server, user, queue, 'retry-me');
      expect(paid).toMatchObject({ status: 201, replayed: null });
      expect(await send(server, user, queue, 'retry-me')).toEqual({ ...paid, replayed: 'true' });
      expect(await spending(server, user.id)).toMatchObject({ holds: 1, amount: 100, jobs: 1 });
    });
  });
}
