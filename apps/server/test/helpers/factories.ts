import { randomUUID } from 'node:crypto';
import type { TokenPair } from '@hookreel/contracts';
import { avatarsRepository } from '../../src/db/repositories/avatars.ts';
import { projectsRepository } from '../../src/db/repositories/projects.ts';
import { cornersOf } from '../../src/services/avatars/catalogue.ts';
import { grantCredits, toHundredths } from '../../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './app.ts';
import { projectForm } from './images.ts';
import { verifyByMail } from './outbox.ts';

/** A unique, valid e-mail address, so tests sharing a database never collide. */
export const uniqueEmail = (prefix = 'user'): string => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

export const TEST_PASSWORD = 'correct horse battery';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** Spread into fetch headers: `{ headers: { ...user.authHeader } }`. */
  authHeader: { authorization: string };
}

/** `{ authorization: 'Bearer …' }` for an access token. */
export const bearer = (accessToken: string): { authorization: string } => ({ authorization: `Bearer ${accessToken}` });

/** POSTs JSON and returns the response (any status); the body is left for the caller. */
export function postJson(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * Registers a new account over HTTP and, unless `verified: false`, opens the verification link from the
 * outbox as the person would, which grants the free credits. Returns its tokens. The usual first line of any
 * test that needs a signed-in user.
 */
export async function registerUser(
  server: TestServer,
  opts: { email?: string; password?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? TEST_PASSWORD;
  const res = await postJson(server, '/api/auth/register', { email, password });
  if (res.status !== 201) throw new Error(`register ${email} failed: ${res.status} ${await res.text()}`);
  const user = await toTestUser(server, email, password, (await res.json()) as TokenPair);
  if (opts.verified ?? true) {
    const verified = await verifyByMail(server, user.email);
    if (verified.status !== 200) throw new Error(`verifying ${email} failed: ${verified.status}`);
  }
  return user;
}

/** Signs an existing account in over HTTP (a new session, separate from any earlier one). */
export async function signIn(server: TestServer, email: string, password: string = TEST_PASSWORD): Promise<TestUser> {
  const res = await postJson(server, '/api/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${await res.text()}`);
  return toTestUser(server, email, password, (await res.json()) as TokenPair);
}

async function toTestUser(server: TestServer, email: string, password: string, pair: TokenPair): Promise<TestUser> {
  const id = await server.ctx.tokens.verify(pair.access_token);
  if (!id) throw new Error('the server issued an access token it does not accept');
  return {
    id,
    email: email.trim().toLowerCase(),
    password,
    accessToken: pair.access_token,
    refreshToken: pair.refresh_token,
    authHeader: bearer(pair.access_token),
  };
}

/** The script the project factories give a project, so it can be queued (the script is required). */
export const TEST_SCRIPT = 'This serum changed my mornings. Try it today.';

/**
 * Creates a project (no product photo) with TEST_SCRIPT and the first catalogue actor over HTTP, as the user would
 * (create, write the script and add a character in the editor), and returns its id: a project that can be queued.
 */
export async function createProjectOverHttp(server: TestServer, user: TestUser, name: string): Promise<number> {
  const res = await fetch(`${server.url}/api/projects/`, {
    method: 'POST',
    headers: user.authHeader,
    body: projectForm(name),
  });
  if (res.status !== 200) throw new Error(`creating project ${name} failed: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  const scripted = await fetch(`${server.url}/api/projects/${id}`, {
    method: 'PUT',
    headers: { ...user.authHeader, 'content-type': 'application/json' },
    body: JSON.stringify({ script: TEST_SCRIPT }),
  });
  if (scripted.status !== 200) throw new Error(`writing the script of ${name} failed: ${scripted.status}`);
  await selectFirstActor(server.url, user.authHeader, id);
  return id;
}

/** Adds the first actor the user can see to the project, as 'Add Character' in the editor does. */
export async function selectFirstActor(base: string, headers: Record<string, string>, projectId: number) {
  const avatars = (await (await fetch(`${base}/api/avatars/`, { headers })).json()) as Array<{ id: number }>;
  if (!avatars[0]) throw new Error('the avatar catalogue is empty');
  const res = await fetch(`${base}/api/projects/${projectId}/selected-characters`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ character_ids: [avatars[0].id] }),
  });
  if (res.status !== 200) throw new Error(`adding an actor to project ${projectId} failed: ${res.status}`);
}

export interface InsertedUser {
  id: number;
  email: string;
  /** A signed access token for the user. */
  token: string;
  /** Spread into fetch headers: `{ headers: { ...user.headers } }`. */
  headers: { authorization: string };
}

/**
 * Inserts a user row straight into the database (no password, no free grant; verified unless told), grants it `credits` (none by
 * default) and signs it an access token. Use it instead of `registerUser` when a test wants no HTTP sign-up and a
 * chosen balance, e.g. to run out of credits or to check ledger totals exactly.
 */
export async function insertUser(
  server: TestServer,
  opts: { credits?: number; notify?: boolean; email?: string; verified?: boolean } = {},
): Promise<InsertedUser> {
  const t = new Date().toISOString();
  const email = opts.email ?? uniqueEmail('u');
  const { id } = await server.ctx.db.kysely
    .insertInto('users')
    .values({
      email,
      password_hash: null,
      notify: opts.notify ? 1 : 0,
      credits_available: 0,
      credits_held: 0,
      email_verified_at: (opts.verified ?? true) ? t : null,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const credits = opts.credits ?? 0;
  if (credits > 0) await grantCredits(server.ctx.db.kysely, id, toHundredths(credits), 'test grant');
  const token = await server.ctx.tokens.sign(id);
  return { id, email, token, headers: bearer(token) };
}

/**
 * Inserts a project (no product photo, TEST_SCRIPT, the first catalogue actor chosen) for the user straight into
 * the database and returns its id.
 */
export async function insertProject(server: TestServer, userId: number, name = 'Summer promo'): Promise<number> {
  const db = server.ctx.db.kysely;
  const { id } = await projectsRepository.insert(db, { userId, name, fileKey: null });
  await projectsRepository.update(db, userId, id, { script: TEST_SCRIPT });
  const actor = (await avatarsRepository.catalogueRows(db)).find((a) => a.deleted_at === null);
  if (!actor) throw new Error('the avatar catalogue is empty');
  await projectsRepository.setSelectedCharacters(db, id, [actor.id]);
  return id;
}

/** A server whose ADMIN_EMAILS names `admin`, with `user` (no admin) and `admin` registered and signed in. */
export async function startServerWithAdmin(
  dialect: 'sqlite' | 'postgres',
): Promise<{ server: TestServer; user: TestUser; admin: TestUser }> {
  const adminEmail = uniqueEmail('admin');
  const server = await startTestServer({ dialect, env: { ADMIN_EMAILS: adminEmail } });
  const user = await registerUser(server);
  const admin = await registerUser(server, { email: adminEmail });
  return { server, user, admin };
}

/** The PUT /api/avatars/{id}/bounds body of a box, with the four corners the editor sends beside it. */
export function avatarBounds(x: number, y: number, width: number, height: number, rotation = 0) {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = cornersOf(x, y, width, height, rotation);
  return { x, y, width, height, rotation, x1, y1, x2, y2, x3, y3, x4, y4 };
}
