import { SignJWT } from 'jose';
import { productForm, productPhoto } from '../hook-helpers.ts';
import { TEST_PASSWORD, uniqueEmail } from './factories.ts';
import { formData, pngImage } from './images.ts';
import { verifyFromOutbox } from './outbox.ts';

/**
 * Factories that work over HTTP only, so they serve a server in another process as well as one in this one:
 * an account, and one of each resource a user can own (project with a stored image, hook pack with a product,
 * character and preview, a job, a job's owner). Jobs are created but never run: the runner is not started.
 */

export interface HttpUser {
  id: number;
  email: string;
  token: string;
  headers: { authorization: string };
}

async function json<T>(res: Response, what: string, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Registers over HTTP; with the server's outbox folder, also opens the verification link from the mail (as the
 * person would), which grants the free credits and allows spending.
 */
export async function registerOverHttp(base: string, email = uniqueEmail(), outboxDir?: string): Promise<HttpUser> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  const { access_token: token } = await json<{ access_token: string }>(res, `register ${email}`, 201);
  if (outboxDir) {
    const verified = await verifyFromOutbox(outboxDir, email);
    if (verified.status !== 200) throw new Error(`verifying ${email}: ${verified.status}`);
  }
  const headers = { authorization: `Bearer ${token}` };
  const me = await json<{ id: number }>(await fetch(`${base}/api/user/me`, { headers }), 'user/me');
  return { id: me.id, email, token, headers };
}

export interface OwnedResources {
  projectId: number;
  /** The project's stored image, served at /api/static/<key>. */
  fileKey: string;
  packId: number;
  characterId: number;
  previewId: number;
  /** The character-generation job of the pack (queued, never run). */
  jobId: number;
  /** A character type of the pack. */
  typeId: number;
  /** A webhook endpoint (a public IP literal: registering it needs no DNS, and nothing is ever delivered). */
  webhookId: number;
}

/** One of everything a user can own, created through the API as that user. */
export async function createOwnedResources(base: string, user: HttpUser): Promise<OwnedResources> {
  const call = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
    const init: RequestInit = { method, headers: { ...user.headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...user.headers, 'content-type': 'application/json' };
    }
    return json<T>(await fetch(`${base}${path}`, init), `${method} ${path}`, status);
  };
  const project = await call<{ id: number }>(
    'POST',
    '/api/projects/',
    formData([
      { name: 'name', value: 'Owned project' },
      { name: 'file', file: await pngImage(), filename: 'p.png', type: 'image/png' },
    ]),
  );
  await call('POST', `/api/projects/${project.id}/selected-characters`, {
    character_ids: [await catalogueAvatarId(base, user)],
  });
  const { file_path } = await call<{ file_path: string }>('GET', `/api/projects/${project.id}`);
  const pack = await call<{ id: number }>('POST', '/api/hooks', { name: 'Owned pack' });
  await call('POST', '/api/hooks/upload-product', productForm(pack.id, await productPhoto({ transparent: true })));
  const [type] = await call<Array<{ id: number }>>('POST', `/api/hooks/character-types/batch?hook_pack_id=${pack.id}`, [
    { description: 'young woman runner', order_index: 0 },
  ]);
  const gen = await call<{ job_id: number; characters: Array<{ id: number }> }>(
    'POST',
    `/api/hooks/generate-characters?hook_pack_id=${pack.id}&count=1`,
  );
  const characterId = gen.characters[0]!.id;
  const [preview] = await call<Array<{ id: number }>>('POST', '/api/hooks/generate-preview', {
    hook_pack_id: pack.id,
    character_ids: [characterId],
  });
  return {
    projectId: project.id,
    fileKey: file_path,
    packId: pack.id,
    characterId,
    previewId: preview!.id,
    jobId: gen.job_id,
    typeId: type!.id,
    webhookId: (await call<{ id: number }>('POST', '/api/webhooks', { url: 'https://93.184.215.14/owned' }, 201)).id,
  };
}

/** The id of a shared catalogue avatar (everyone can see it; only admins may change it). */
export async function catalogueAvatarId(base: string, user: HttpUser): Promise<number> {
  const list = await json<Array<{ id: number; catalogue?: boolean }>>(
    await fetch(`${base}/api/avatars/`, { headers: user.headers }),
    'avatars',
  );
  // The user's own creators come first in the list; the catalogue's first actor is what callers want.
  const first = list.find((a) => a.catalogue) ?? list[0];
  if (!first) throw new Error('the avatar catalogue is empty');
  return first.id;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * Authorization header values that must all be refused: other schemes, empty and oversized bearers, tokens
 * signed with the wrong key or none, a tampered payload, and tokens signed with the right key that are expired,
 * for another audience or for a user who does not exist.
 */
export async function forgedAuthorizations(
  secret: string,
  user: HttpUser,
): Promise<Array<{ label: string; value: string }>> {
  const key = new TextEncoder().encode(secret);
  const claims = (sub: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setIssuer('hookreel')
      .setAudience('hookreel-api');
  const now = Math.floor(Date.now() / 1000);
  const [header, , signature] = user.token.split('.');
  const tampered = `${header}.${b64({ sub: String(user.id + 1), iss: 'hookreel', aud: 'hookreel-api', exp: now + 600 })}.${signature}`;
  return [
    { label: 'basic', value: `Basic ${Buffer.from(`${user.email}:${TEST_PASSWORD}`).toString('base64')}` },
    { label: 'empty bearer', value: 'Bearer ' },
    { label: 'bearer without space', value: `Bearer${user.token}` },
    { label: 'lowercase scheme', value: 'bearer not-a-token' },
    { label: 'garbage', value: 'Bearer a.b.c' },
    { label: 'oversized', value: `Bearer ${'A'.repeat(8000)}` },
    {
      label: 'alg none',
      value: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: String(user.id), iss: 'hookreel', aud: 'hookreel-api', exp: now + 600 })}.`,
    },
    {
      label: 'wrong key',
      value: `Bearer ${await claims(String(user.id))
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('x'.repeat(40)))}`,
    },
    { label: 'tampered payload', value: `Bearer ${tampered}` },
    {
      label: 'expired',
      value: `Bearer ${await claims(String(user.id))
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 3600)
        .sign(key)}`,
    },
    {
      label: 'other audience',
      value: `Bearer ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(user.id)).setIssuer('hookreel').setAudience('someone-else').setExpirationTime('10m').sign(key)}`,
    },
    { label: 'no such user', value: `Bearer ${await claims('987654321').setExpirationTime('10m').sign(key)}` },
    { label: 'negative subject', value: `Bearer ${await claims('-1').setExpirationTime('10m').sign(key)}` },
    { label: 'injection subject', value: `Bearer ${await claims('1 OR 1=1').setExpirationTime('10m').sign(key)}` },
  ];
}
