import { inflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';
import { now } from '../src/db/database.ts';
import { reserveCredits } from '../src/services/billing/credits.ts';
import type { TestServer } from './helpers/app.ts';
import type { TestUser } from './helpers/factories.ts';
import { projectForm } from './helpers/images.ts';

/** fetch against a server (any base URL) as a user; JSON bodies are encoded, FormData is passed through. */
export async function call(
  server: Pick<TestServer, 'url'>,
  user: Pick<TestUser, 'authHeader'>,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many response shapes; each test asserts the fields it uses
): Promise<{ status: number; json: any; res: Response }> {
  const headers: Record<string, string> = { ...user.authHeader };
  let payload: RequestInit['body'];
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${server.url}${path}`, { method, headers, body: payload });
  const type = res.headers.get('content-type') ?? '';
  const json = type.includes('application/json') ? await res.json() : null;
  return { status: res.status, json, res };
}

/**
 * A product photo made with sharp: a red bottle with a cap on a white background. `transparent` leaves the
 * background transparent: such a photo is its own cut-out (no model run, docs/decisions/151), so tests that are
 * not about the cut-out take it and skip ~15 s of model CPU per product.
 */
export async function productPhoto(opts: { transparent?: boolean } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    ${opts.transparent ? '' : '<rect width="480" height="640" fill="#ffffff"/>'}
    <rect x="170" y="180" width="140" height="380" rx="30" fill="#d62d2d"/>
    <rect x="205" y="110" width="70" height="80" rx="8" fill="#333333"/>
    <rect x="190" y="300" width="100" height="90" fill="#f5e6c8"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export function productForm(packId: number, image: Buffer): FormData {
  const form = new FormData();
  form.append('hook_pack_id', String(packId));
  form.append('product_image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'product.png');
  return form;
}

/** Uploads a product photo (transparent, its own cut-out) to the user's pack `packId`; returns the answer. */
export const uploadProductPhoto = async (
  server: Pick<TestServer, 'url'>,
  user: Pick<TestUser, 'authHeader'>,
  packId: number,
) =>
  call(
    server,
    user,
    'POST',
    '/api/hooks/upload-product',
    productForm(packId, await productPhoto({ transparent: true })),
  );

/** Creates the user's project `name` with a product photo (transparent, its own cut-out); returns the answer. */
export const createProductProject = async (
  server: Pick<TestServer, 'url'>,
  user: Pick<TestUser, 'authHeader'>,
  name: string,
  filename?: string,
) =>
  call(server, user, 'POST', '/api/projects/', projectForm(name, await productPhoto({ transparent: true }), filename));

/** Holds every available credit of the user (a ledger-consistent way to leave them with nothing). */
export async function drainCredits(server: TestServer, userId: number): Promise<void> {
  const available = await availableCredits(server, userId);
  if (available > 0) {
    await server.ctx.db.kysely
      .transaction()
      .execute((trx) => reserveCredits(trx, userId, available, 'test-drain', 'drained'));
  }
}

export async function availableCredits(server: TestServer, userId: number): Promise<number> {
  const u = await server.ctx.db.kysely
    .selectFrom('users')
    .select('credits_available')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return u.credits_available;
}

/** Polls `probe` until it returns a truthy value, or fails the test after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) expect.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The entries of a zip, read through its central directory: each name, and its bytes (stored or deflated). */
function zipEntries(zip: Buffer): Array<{ name: string; bytes: () => Buffer }> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const entries: Array<{ name: string; bytes: () => Buffer }> = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const local = zip.readUInt32LE(p + 42);
    const bytes = () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 0 ? Buffer.from(data) : inflateRawSync(data);
    };
    entries.push({ name: zip.toString('utf8', p + 46, p + 46 + nameLen), bytes });
    p += 46 + nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return entries;
}

/** Names of the entries in a zip. */
export const zipEntryNames = (zip: Buffer): string[] => zipEntries(zip).map((e) => e.name);

/** The bytes of one entry of a zip. */
export function zipEntry(zip: Buffer, name: string): Buffer {
  const entry = zipEntries(zip).find((e) => e.name === name);
  if (!entry) throw new Error(`${name} is not in the zip`);
  return entry.bytes();
}

/** Makes a preview of the character approved with an image, as if its job had run (for rules that need one). */
export async function fakeApprovedPreview(server: TestServer, packId: number, characterId: number): Promise<number> {
  const at = now();
  const row = await server.ctx.db.kysely
    .insertInto('preview_characters')
    .values({
      hook_pack_id: packId,
      generated_character_id: characterId,
      image_key: 'users/0/hook-packs/fake.png',
      errors: null,
      approved: 1,
      status: 'accepted',
      position_x: 300,
      position_y: 700,
      scale: 0.3,
      rotation: 0,
      mask_key: null,
      job_id: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A pack with a product (already cut out: its tests are not about the cut-out), a hook, one character type and
 * `count` (pending) characters, owned by `user`. Jobs do not run.
 */
export async function packWithCharacters(
  server: TestServer,
  user: Pick<TestUser, 'authHeader'>,
  opts: { name: string; count: number },
): Promise<{ id: number; typeId: number; characters: number[] }> {
  const pack = await call(server, user, 'POST', '/api/hooks', {
    name: opts.name,
    language: 'english',
    accent: 'american',
  });
  expect(pack.status).toBe(200);
  const id = pack.json.id as number;
  const photo = await productPhoto({ transparent: true });
  expect((await call(server, user, 'POST', '/api/hooks/upload-product', productForm(id, photo))).status).toBe(200);
  expect((await call(server, user, 'PUT', `/api/hooks/${id}`, { message: 'Glow all day' })).status).toBe(200);
  const types = await call(server, user, 'POST', `/api/hooks/character-types/batch?hook_pack_id=${id}`, [
    { description: 'young woman runner', order_index: 0 },
  ]);
  expect(types.status).toBe(200);
  const gen = await call(server, user, 'POST', `/api/hooks/generate-characters?hook_pack_id=${id}&count=${opts.count}`);
  expect(gen.status).toBe(200);
  const characters = (gen.json.characters as Array<{ id: number }>).map((c) => c.id);
  return { id, typeId: types.json[0].id as number, characters };
}

/** A pack with a product, one type, four (pending) characters and one preview, owned by `user`. Jobs do not run. */
export async function packWithEverything(server: TestServer, user: TestUser) {
  const { id, typeId, characters } = await packWithCharacters(server, user, { name: 'Mine', count: 4 });
  const characterId = characters[0]!;
  const previews = await call(server, user, 'POST', '/api/hooks/generate-preview', {
    hook_pack_id: id,
    character_ids: [characterId],
  });
  expect(previews.status).toBe(200);
  return { id, typeId, characterId, previewId: previews.json[0].id as number };
}
