import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productForm, productPhoto } from './hook-helpers.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { avatarBounds, registerUser, uniqueEmail, type TestUser } from './helpers/factories.ts';
import { avatarUploadForm, creatorForm, formData, pngImage } from './helpers/images.ts';
import { catalogueAvatarId, createOwnedResources, type OwnedResources } from './helpers/owned-resources.ts';
import { wavTone } from './helpers/audio.ts';
import { collectRoutes, routeKey, type RouteInfo } from './helpers/route-inventory.ts';

/**
 * Issue #6: every route called as anonymous, owner, another user and an admin, from one table. The rules
 * (docs/architecture.md, services): no credentials → 401; another user's resource answers exactly like a
 * missing one → 404, never 403; the avatar library is shared and only admins (ADMIN_EMAILS) may change it →
 * 403 for everyone else; being an admin grants nothing over other people's resources (admin → 404 there too).
 * Credit-spending routes create their jobs but nothing renders: the job runner is never started.
 */

type Role = 'anon' | 'owner' | 'other' | 'admin';
const ROLES: Role[] = ['anon', 'owner', 'other', 'admin'];

interface World {
  server: TestServer;
  users: Record<Exclude<Role, 'anon'>, TestUser>;
  /** The owner's resources; `other` and `admin` own resources of their own too (a non-empty world). */
  owned: OwnedResources;
  avatarId: number;
  /** One of the owner's own creators (decision 202). */
  creatorId: number;
  /** An e-mail in ADMIN_EMAILS nobody has registered yet, for the row that deletes accounts. */
  spareAdminEmail: string;
}

interface Call {
  path: string;
  /** JSON, or FormData for multipart. */
  body?: unknown;
  /** Authenticate as this user instead of the role's usual one (a fresh account of the same role). */
  as?: TestUser | null;
}

interface Row {
  /** `METHOD /url` exactly as the app registers it. */
  route: string;
  /** Expected status per role. */
  expect: Record<Role, number>;
  /** Builds the request for one role; runs once per role, so it can make a fresh resource each time. */
  call: (w: World, role: Role) => Call | Promise<Call>;
  /** For lists: the owner's id that must not appear in anyone else's answer. */
  ownerOnlyId?: (w: World) => number;
}

/** A resource of the owner's: 401 without credentials, 404 for anyone else (admins included). */
const OWNED = (ok = 200) => ({ anon: 401, owner: ok, other: 404, admin: 404 });
/** The caller's own data, or creating something new: any signed-in user. */
const SIGNED_IN = (ok = 200) => ({ anon: 401, owner: ok, other: ok, admin: ok });
/** Changing the shared avatar library: admins only, 403 (not 404: the library is visible to everyone). */
const ADMIN_ONLY = (ok = 200) => ({ anon: 401, owner: 403, other: 403, admin: ok });
const PUBLIC = { anon: 200, owner: 200, other: 200, admin: 200 };

/**
 * Routes that are public by design and so not in the table: signing in and up (and the token calls that carry
 * their own credentials in the body or cookie), the e-mail verification link, the OpenID sign-in redirects, the local OpenID provider with its
 * account chooser (a protocol surface of its own), and the API description with its viewer.
 */
const PUBLIC_ROUTES: RegExp[] = [
  /^POST \/api\/auth\/(register|login|refresh|logout|exchange)$/,
  /^GET \/api\/auth\/verify-email$/,
  /^GET \/api\/auth\/google\/(login|callback)$/,
  /^[A-Z]+ \/api\/oidc\//,
  /^GET \/api\/openapi\.json$/,
  /^GET \/api\/docs(\/.*)?$/,
];

const batchForm = async () =>
  formData([
    { name: 'csv', value: 'product,actor,script\nserum.png,1,Matrix row.\n' },
    { name: 'products', file: await pngImage(), filename: 'serum.png', type: 'image/png' },
  ]);
const matrixCreatorForm = () => creatorForm('Matrix creator', 'c.png');
const projectForm = async () =>
  formData([
    { name: 'name', value: 'Matrix project' },
    { name: 'file', file: await pngImage(), filename: 'p.png', type: 'image/png' },
  ]);

/** Calls as the owner and expects success: for rows that need a fresh resource for every role. */
async function asOwner<T>(w: World, method: string, path: string, body?: unknown): Promise<T> {
  const res = await send(w, w.users.owner, method, path, body);
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as T;
}

async function send(w: World, who: TestUser | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = who ? { ...who.authHeader } : {};
  let payload: RequestInit['body'];
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${w.server.url}${path}`, { method, headers, body: payload });
  const json: unknown = (res.headers.get('content-type') ?? '').includes('application/json') ? await res.json() : null;
  // Event streams and zips are not read; cancelling closes them.
  await res.body?.cancel().catch(() => undefined);
  return { status: res.status, json };
}

const TABLE: Row[] = [
  // Public by design: health, capabilities and voices (no keys or provider addresses), and stored files (unguessable keys work like capability links for <img>/<video>).
  { route: 'GET /api/health', expect: PUBLIC, call: () => ({ path: '/api/health' }) },
  { route: 'GET /api/capabilities', expect: PUBLIC, call: () => ({ path: '/api/capabilities' }) },
  // Choosing a voice costs nothing and says nothing about keys: the list and the samples are public too.
  { route: 'GET /api/voices', expect: PUBLIC, call: () => ({ path: '/api/voices' }) },
  {
    route: 'GET /api/voices/:id/sample',
    expect: PUBLIC,
    call: () => ({ path: `/api/voices/${encodeURIComponent('espeak:en-us+m3')}/sample` }),
  },
  { route: 'GET /api/static/*', expect: PUBLIC, call: (w) => ({ path: `/api/static/${w.owned.fileKey}` }) },

  // The account itself.
  { route: 'GET /api/user/me', expect: SIGNED_IN(), call: () => ({ path: '/api/user/me' }) },
  {
    route: 'POST /api/auth/verify-email/resend',
    expect: SIGNED_IN(204),
    call: () => ({ path: '/api/auth/verify-email/resend' }),
  },
  {
    route: 'PUT /api/user/me/notify',
    expect: SIGNED_IN(),
    call: () => ({ path: '/api/user/me/notify', body: { notify: true } }),
  },
  {
    route: 'DELETE /api/user/me',
    expect: SIGNED_IN(204),
    // Each role deletes a fresh account of its kind, so the shared users live on.
    call: async (w, role) => ({
      path: '/api/user/me',
      as: role === 'anon' ? null : await registerUser(w.server, role === 'admin' ? { email: w.spareAdminEmail } : {}),
    }),
  },

  // Projects.
  ...['/api/projects', '/api/projects/'].flatMap((p): Row[] => [
    { route: `GET ${p}`, expect: SIGNED_IN(), call: () => ({ path: p }), ownerOnlyId: (w) => w.owned.projectId },
    { route: `POST ${p}`, expect: SIGNED_IN(), call: async () => ({ path: p, body: await projectForm() }) },
  ]),
  { route: 'GET /api/projects/:id', expect: OWNED(), call: (w) => ({ path: `/api/projects/${w.owned.projectId}` }) },
  {
    route: 'PUT /api/projects/:id',
    expect: OWNED(),
    call: (w) => ({
      path: `/api/projects/${w.owned.projectId}`,
      body: { name: 'Renamed project', script: 'Try it today.' },
    }),
  },
  {
    route: 'PUT /api/projects/:id/music',
    expect: OWNED(),
    call: (w) => ({
      path: `/api/projects/${w.owned.projectId}/music`,
      body: formData([{ name: 'music', file: wavTone(1), filename: 'bed.wav', type: 'audio/wav' }]),
    }),
  },
  {
    route: 'DELETE /api/projects/:id/music',
    expect: OWNED(),
    call: (w) => ({ path: `/api/projects/${w.owned.projectId}/music` }),
  },
  {
    route: 'PUT /api/projects/:id/voice-over',
    expect: OWNED(),
    call: (w) => ({
      path: `/api/projects/${w.owned.projectId}/voice-over`,
      body: formData([{ name: 'voice_over', file: wavTone(2), filename: 'me.wav', type: 'audio/wav' }]),
    }),
  },
  {
    route: 'DELETE /api/projects/:id/voice-over',
    expect: OWNED(),
    call: (w) => ({ path: `/api/projects/${w.owned.projectId}/voice-over` }),
  },
  {
    route: 'PUT /api/hooks/:id/music',
    expect: OWNED(),
    call: (w) => ({
      path: `/api/hooks/${w.owned.packId}/music`,
      body: formData([{ name: 'music', file: wavTone(1), filename: 'bed.wav', type: 'audio/wav' }]),
    }),
  },
  {
    route: 'DELETE /api/hooks/:id/music',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/${w.owned.packId}/music` }),
  },
  {
    route: 'DELETE /api/projects/:id',
    expect: OWNED(204),
    call: async (w) => ({
      path: `/api/projects/${(await asOwner<{ id: number }>(w, 'POST', '/api/projects/', await projectForm())).id}`,
    }),
  },
  {
    route: 'POST /api/projects/:id/selected-characters',
    expect: OWNED(),
    call: (w) => ({
      path: `/api/projects/${w.owned.projectId}/selected-characters`,
      body: { character_ids: [w.avatarId] },
    }),
  },

  // The avatar library: everyone signed in reads it, admins change it.
  ...['/api/avatars', '/api/avatars/'].map((p): Row => ({
    route: `GET ${p}`,
    expect: SIGNED_IN(),
    call: () => ({ path: p }),
  })),
  {
    route: 'PUT /api/avatars/:id/bounds',
    expect: ADMIN_ONLY(),
    call: (w) => ({ path: `/api/avatars/${w.avatarId}/bounds`, body: avatarBounds(200, 600, 170, 210) }),
  },
  {
    route: 'POST /api/avatars/upload',
    expect: ADMIN_ONLY(),
    call: async () => ({
      path: '/api/avatars/upload',
      body: await avatarUploadForm({ filename: 'a.png' }),
    }),
  },
  {
    route: 'DELETE /api/avatars/:id',
    expect: ADMIN_ONLY(204),
    call: async (w) => {
      const fd = await avatarUploadForm({ filename: 'a.png' });
      const res = await send(w, w.users.admin, 'POST', '/api/avatars/upload', fd);
      return { path: `/api/avatars/${(res.json as Array<{ id: number }>)[0]!.id}` };
    },
  },

  // Own creators: private to their owner; anyone else gets 404, admins included.
  {
    route: 'GET /api/creators',
    expect: SIGNED_IN(),
    call: () => ({ path: '/api/creators' }),
    ownerOnlyId: (w) => w.creatorId,
  },
  {
    route: 'POST /api/creators',
    expect: SIGNED_IN(201),
    call: async () => ({ path: '/api/creators', body: await matrixCreatorForm() }),
  },
  { route: 'GET /api/creators/:id', expect: OWNED(), call: (w) => ({ path: `/api/creators/${w.creatorId}` }) },
  // Any actor the caller can see (a catalogue actor: everyone); a creator is seen by its owner alone.
  {
    route: 'POST /api/avatars/:id/talking-preview',
    expect: OWNED(),
    call: (w) => ({ path: `/api/avatars/${w.creatorId}/talking-preview` }),
  },
  {
    route: 'PATCH /api/creators/:id',
    expect: OWNED(),
    call: (w) => ({ path: `/api/creators/${w.creatorId}`, body: { name: 'Renamed' } }),
  },
  {
    route: 'DELETE /api/creators/:id',
    expect: OWNED(204),
    call: async (w, role) => {
      if (role !== 'owner') return { path: `/api/creators/${w.creatorId}` };
      const made = await asOwner<{ id: number }>(w, 'POST', '/api/creators', await matrixCreatorForm());
      return { path: `/api/creators/${made.id}` };
    },
  },
  // An actor's once-per-user upgrades (decision 216), asked of the owner's creator: 404 for anyone else. The owner
  // is refused (422): a creator is already a photo, and no image-edit provider is configured here.
  {
    route: 'GET /api/avatars/:id/look',
    expect: OWNED(),
    call: (w) => ({ path: `/api/avatars/${w.creatorId}/look` }),
  },
  {
    route: 'POST /api/avatars/:id/photoreal',
    expect: OWNED(422),
    call: (w) => ({ path: `/api/avatars/${w.creatorId}/photoreal` }),
  },
  {
    route: 'POST /api/avatars/:id/mouth-stills',
    expect: OWNED(422),
    call: (w) => ({ path: `/api/avatars/${w.creatorId}/mouth-stills` }),
  },

  // Jobs.
  ...['/api/jobs', '/api/jobs/'].map((p): Row => ({
    route: `GET ${p}`,
    expect: SIGNED_IN(),
    call: () => ({ path: p }),
  })),
  { route: 'GET /api/jobs/events', expect: SIGNED_IN(), call: () => ({ path: '/api/jobs/events' }) },
  { route: 'POST /api/jobs/events/ticket', expect: SIGNED_IN(), call: () => ({ path: '/api/jobs/events/ticket' }) },
  { route: 'GET /api/jobs/:id', expect: OWNED(), call: (w) => ({ path: `/api/jobs/${w.owned.jobId}` }) },
  {
    route: 'DELETE /api/jobs/:id',
    expect: OWNED(204),
    // A fresh (free) product-analysis job of the owner's for every role.
    call: async (w) => ({
      path: `/api/jobs/${(await asOwner<{ job_id: number }>(w, 'POST', `/api/hooks/process-step1?hook_pack_id=${w.owned.packId}`)).job_id}`,
    }),
  },
  {
    route: 'POST /api/jobs/:id/queue',
    expect: OWNED(201),
    call: (w) => ({ path: `/api/jobs/${w.owned.projectId}/queue` }),
  },
  {
    route: 'POST /api/jobs/:id/make-realistic',
    // The owner gets past the access check to the rule: only a finished draft project video (409).
    expect: OWNED(409),
    call: (w) => ({ path: `/api/jobs/${w.owned.jobId}/make-realistic` }),
  },
  {
    route: 'POST /api/jobs/hook-pack/:id/queue-videos',
    // The owner gets past the access check to the pack's rules: no approved previews yet (422).
    expect: OWNED(422),
    call: (w) => ({ path: `/api/jobs/hook-pack/${w.owned.packId}/queue-videos`, body: {} }),
  },
  {
    route: 'GET /api/jobs/hook-pack/:id/jobs',
    expect: OWNED(),
    call: (w) => ({ path: `/api/jobs/hook-pack/${w.owned.packId}/jobs` }),
  },
  {
    route: 'POST /api/jobs/product-in-hand/:projectId/queue-videos',
    // The owner gets past the access check to the rules: no merged actor yet (422).
    expect: OWNED(422),
    call: (w) => ({ path: `/api/jobs/product-in-hand/${w.owned.projectId}/queue-videos` }),
  },

  // Public figures (aggregates only).
  { route: 'GET /api/stats', expect: PUBLIC, call: () => ({ path: '/api/stats' }) },
  {
    // Signed-in only; the address is a loopback one, which the SSRF guard refuses for everyone (422).
    route: 'POST /api/generate/remote-image',
    expect: { anon: 401, owner: 422, other: 422, admin: 422 },
    call: () => ({ path: '/api/generate/remote-image', body: { url: 'http://127.0.0.1/product.png' } }),
  },

  // Hook packs.
  ...['/api/hooks', '/api/hooks/'].flatMap((p): Row[] => [
    { route: `GET ${p}`, expect: SIGNED_IN(), call: () => ({ path: p }), ownerOnlyId: (w) => w.owned.packId },
    { route: `POST ${p}`, expect: SIGNED_IN(), call: () => ({ path: p, body: { name: 'Matrix pack' } }) },
  ]),
  { route: 'GET /api/hooks/:id', expect: OWNED(), call: (w) => ({ path: `/api/hooks/${w.owned.packId}` }) },
  {
    route: 'GET /api/hooks/:id/hook-lines',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/${w.owned.packId}/hook-lines?hook=Glow%20all%20day` }),
  },
  {
    route: 'PUT /api/hooks/:id',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/${w.owned.packId}`, body: { name: 'Renamed pack' } }),
  },
  {
    route: 'DELETE /api/hooks/:id',
    expect: OWNED(204),
    // A fresh draft (no product yet) of the owner's for every role.
    call: async (w) => ({
      path: `/api/hooks/${(await asOwner<{ id: number }>(w, 'POST', '/api/hooks', { name: 'Draft' })).id}`,
    }),
  },
  {
    route: 'GET /api/hooks/:id/download',
    // The owner gets past the access check: no videos to download yet (409).
    expect: OWNED(409),
    call: (w) => ({ path: `/api/hooks/${w.owned.packId}/download` }),
  },
  {
    route: 'POST /api/hooks/upload-product',
    expect: OWNED(),
    call: async (w) => ({ path: '/api/hooks/upload-product', body: productForm(w.owned.packId, await productPhoto()) }),
  },
  {
    route: 'POST /api/hooks/process-step1',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/process-step1?hook_pack_id=${w.owned.packId}` }),
  },
  {
    route: 'POST /api/hooks/:id/accept-cutout',
    // The owner's pack has no cut-out waiting for review: past the access check to the rule (decision 214).
    expect: OWNED(409),
    call: (w) => ({ path: `/api/hooks/${w.owned.packId}/accept-cutout` }),
  },
  {
    route: 'POST /api/hooks/character-types/batch',
    expect: OWNED(),
    call: (w) => ({
      path: `/api/hooks/character-types/batch?hook_pack_id=${w.owned.packId}`,
      body: [{ description: 'young woman runner', order_index: 0 }],
    }),
  },
  {
    route: 'POST /api/hooks/generate-characters',
    expect: OWNED(),
    // 'Generate More': the pack's type already has its people, and repeating those is refused (409).
    call: (w) => ({ path: `/api/hooks/generate-characters?hook_pack_id=${w.owned.packId}&count=1&description=dad` }),
  },
  {
    route: 'GET /api/hooks/characters/:id',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/characters/${w.owned.packId}` }),
  },
  {
    route: 'POST /api/hooks/:id/creators',
    // The owner's pack and the owner's creator (decision 207); nobody else reaches either.
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/${w.owned.packId}/creators`, body: { creator_id: w.creatorId } }),
  },
  {
    route: 'POST /api/hooks/select-character/:id',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/select-character/${w.owned.characterId}?selected=true` }),
  },
  {
    route: 'POST /api/hooks/generate-preview',
    // The owner is let through and refused as a repeat: that character's preview is already on its way.
    expect: OWNED(409),
    call: (w) => ({
      path: '/api/hooks/generate-preview',
      body: { hook_pack_id: w.owned.packId, character_ids: [w.owned.characterId] },
    }),
  },
  {
    route: 'PUT /api/hooks/preview/:id',
    expect: OWNED(),
    call: (w) => ({ path: `/api/hooks/preview/${w.owned.previewId}`, body: { approved: false } }),
  },
  {
    route: 'POST /api/hooks/preview/:id/regenerate',
    // The owner is let through and refused as a repeat: that preview is still being made.
    expect: OWNED(409),
    call: (w) => ({ path: `/api/hooks/preview/${w.owned.previewId}/regenerate?reason=product` }),
  },

  // Product in hand.
  {
    route: 'POST /api/merge/single',
    expect: OWNED(),
    call: (w) => ({
      path: '/api/merge/single',
      body: formData([
        { name: 'project_id', value: String(w.owned.projectId) },
        { name: 'character_id', value: String(w.avatarId) },
        { name: 'mask_data', value: JSON.stringify({ position_x: 100, position_y: 200, scale: 0.4, rotation: 0 }) },
      ]),
    }),
  },
  {
    route: 'GET /api/merge/avatars-with-status/:projectId',
    expect: OWNED(),
    call: (w) => ({ path: `/api/merge/avatars-with-status/${w.owned.projectId}` }),
  },
  {
    route: 'POST /api/merge/cutout-check/:projectId',
    // Free: the owner's project has a product image, so its check is queued.
    expect: OWNED(),
    call: (w) => ({ path: `/api/merge/cutout-check/${w.owned.projectId}` }),
  },
  {
    route: 'POST /api/merge/accept-cutout/:projectId',
    // Nothing waits for review on the owner's project: past the access check to the rule (decision 214).
    expect: OWNED(409),
    call: (w) => ({ path: `/api/merge/accept-cutout/${w.owned.projectId}` }),
  },

  // Credits and billing (demo mode here; the Stripe webhook exists only with BILLING=stripe).
  { route: 'GET /api/credits/prices', expect: PUBLIC, call: () => ({ path: '/api/credits/prices' }) },
  { route: 'GET /api/credits/ledger', expect: SIGNED_IN(), call: () => ({ path: '/api/credits/ledger' }) },
  { route: 'GET /api/credits/refunds', expect: SIGNED_IN(), call: () => ({ path: '/api/credits/refunds' }) },
  {
    route: 'POST /api/jobs/:id/refund-request',
    // The owner gets past the access check to the refund rules: the job has not finished (422).
    expect: OWNED(422),
    call: (w) => ({ path: `/api/jobs/${w.owned.jobId}/refund-request`, body: { reason: 'The video came out wrong' } }),
  },
  { route: 'GET /api/billing/subscription', expect: SIGNED_IN(), call: () => ({ path: '/api/billing/subscription' }) },
  {
    route: 'POST /api/billing/checkout',
    expect: SIGNED_IN(),
    call: () => ({ path: '/api/billing/checkout', body: { bundle: 'bundle-5' } }),
  },
  // The portal is Stripe's: without Stripe billing there is none for anyone.
  {
    route: 'POST /api/billing/portal',
    expect: { anon: 401, owner: 404, other: 404, admin: 404 },
    call: () => ({ path: '/api/billing/portal' }),
  },
  {
    route: 'POST /api/admin/credits',
    expect: ADMIN_ONLY(),
    call: (w) => ({
      path: '/api/admin/credits',
      body: { email: w.users.owner.email, action: 'grant', amount: 1, reason: 'Access matrix' },
    }),
  },
  // Batches from a spreadsheet (decision 138): the template is public, every batch is its owner's.
  { route: 'GET /api/batches/template.csv', expect: PUBLIC, call: () => ({ path: '/api/batches/template.csv' }) },
  { route: 'GET /api/batches', expect: SIGNED_IN(), call: () => ({ path: '/api/batches' }) },
  {
    route: 'POST /api/batches',
    expect: SIGNED_IN(201),
    call: async () => ({ path: '/api/batches', body: await batchForm() }),
  },
  {
    route: 'GET /api/batches/:id',
    expect: OWNED(),
    call: async (w) => ({
      path: `/api/batches/${(await asOwner<{ id: number }>(w, 'POST', '/api/batches', await batchForm())).id}`,
    }),
  },
  {
    route: 'POST /api/batches/:id/confirm',
    expect: OWNED(),
    call: async (w) => ({
      path: `/api/batches/${(await asOwner<{ id: number }>(w, 'POST', '/api/batches', await batchForm())).id}/confirm`,
    }),
  },
  {
    route: 'GET /api/batches/:id/download',
    expect: OWNED(),
    call: async (w) => ({
      path: `/api/batches/${(await asOwner<{ id: number }>(w, 'POST', '/api/batches', await batchForm())).id}/download`,
    }),
  },
  // Personal API keys and webhooks (decisions 131, 132): each person's own; a public IP literal needs no DNS.
  { route: 'GET /api/api-keys', expect: SIGNED_IN(), call: () => ({ path: '/api/api-keys' }) },
  {
    route: 'POST /api/api-keys',
    expect: SIGNED_IN(201),
    call: () => ({ path: '/api/api-keys', body: { name: 'Matrix key' } }),
  },
  {
    route: 'DELETE /api/api-keys/:id',
    expect: OWNED(204),
    call: async (w) => {
      const key = await asOwner<{ id: number }>(w, 'POST', '/api/api-keys', { name: 'To revoke' });
      return { path: `/api/api-keys/${key.id}` };
    },
  },
  // The brand kit is always the caller's own (keyed by their id): each role reads and writes its own.
  { route: 'GET /api/brand-kit', expect: SIGNED_IN(), call: () => ({ path: '/api/brand-kit' }) },
  { route: 'GET /api/brand-kit/fonts/:font', expect: PUBLIC, call: () => ({ path: '/api/brand-kit/fonts/lato' }) },
  {
    route: 'PUT /api/brand-kit',
    expect: SIGNED_IN(),
    call: () => ({
      path: '/api/brand-kit',
      body: {
        primary_colour: '#112233',
        secondary_colour: '#445566',
        caption_font: 'lato',
        caption_style: 'pop',
        cta_text: null,
        outro: false,
      },
    }),
  },
  {
    route: 'PUT /api/brand-kit/logo',
    expect: SIGNED_IN(),
    call: async () => ({
      path: '/api/brand-kit/logo',
      body: formData([{ name: 'logo', file: await pngImage(), filename: 'logo.png', type: 'image/png' }]),
    }),
  },
  { route: 'DELETE /api/brand-kit/logo', expect: SIGNED_IN(), call: () => ({ path: '/api/brand-kit/logo' }) },
  { route: 'GET /api/webhooks', expect: SIGNED_IN(), call: () => ({ path: '/api/webhooks' }) },
  {
    route: 'POST /api/webhooks',
    expect: SIGNED_IN(201),
    call: () => ({ path: '/api/webhooks', body: { url: 'https://93.184.215.14/hookreel' } }),
  },
  {
    route: 'DELETE /api/webhooks/:id',
    expect: OWNED(204),
    call: async (w, role) => {
      if (role !== 'anon' && role !== 'owner') return { path: `/api/webhooks/${w.owned.webhookId}` };
      const hook = await asOwner<{ id: number }>(w, 'POST', '/api/webhooks', { url: 'https://93.184.215.14/gone' });
      return { path: `/api/webhooks/${hook.id}` };
    },
  },
  {
    route: 'POST /api/webhooks/:id/test',
    expect: OWNED(202),
    call: (w) => ({ path: `/api/webhooks/${w.owned.webhookId}/test` }),
  },
  {
    route: 'POST /api/webhooks/:id/resume',
    expect: OWNED(200),
    call: (w) => ({ path: `/api/webhooks/${w.owned.webhookId}/resume` }),
  },
  { route: 'GET /api/webhooks/deliveries', expect: SIGNED_IN(), call: () => ({ path: '/api/webhooks/deliveries' }) },
  { route: 'GET /api/admin/refunds', expect: ADMIN_ONLY(), call: () => ({ path: '/api/admin/refunds' }) },
  {
    route: 'GET /api/admin/provider-usage',
    expect: ADMIN_ONLY(),
    call: () => ({ path: '/api/admin/provider-usage' }),
  },
  {
    route: 'POST /api/admin/refunds/:id',
    // No such request: administrators get past the access check to a 404.
    expect: { anon: 401, owner: 403, other: 403, admin: 404 },
    call: () => ({ path: '/api/admin/refunds/999999', body: { decision: 'decline' } }),
  },
];

describe.each(TEST_DIALECTS)('access matrix on %s', (dialect) => {
  let w: World;
  let routes: RouteInfo[];

  beforeAll(async () => {
    const adminEmail = uniqueEmail('admin');
    const spareAdminEmail = uniqueEmail('admin2');
    const started = await collectRoutes(() =>
      startTestServer({ dialect, env: { ADMIN_EMAILS: `${adminEmail},${spareAdminEmail}`, BILLING: 'demo' } }),
    );
    routes = started.routes;
    const server = started.result;
    const [owner, other, admin] = await Promise.all([
      registerUser(server),
      registerUser(server),
      registerUser(server, { email: adminEmail }),
    ]);
    const http = (u: TestUser) => ({ id: u.id, email: u.email, token: u.accessToken, headers: u.authHeader });
    // Everyone owns something, so "not found" for others is about ownership and not about an empty database.
    const [owned] = await Promise.all([
      createOwnedResources(server.url, http(owner)),
      createOwnedResources(server.url, http(other)),
      createOwnedResources(server.url, http(admin)),
    ]);
    const creator = await fetch(`${server.url}/api/creators`, {
      method: 'POST',
      headers: owner.authHeader,
      body: await matrixCreatorForm(),
    });
    if (creator.status !== 201) throw new Error(`setup creator: ${creator.status} ${await creator.text()}`);
    w = {
      server,
      users: { owner, other, admin },
      owned,
      avatarId: await catalogueAvatarId(server.url, http(owner)),
      creatorId: ((await creator.json()) as { id: number }).id,
      spareAdminEmail,
    };
  }, 120_000);
  afterAll(() => w?.server.close());

  it('has a row for every route the app registers, apart from the public allow-list', () => {
    const keys = routes.map(routeKey);
    for (const known of ['GET /api/projects/:id', 'DELETE /api/user/me', 'POST /api/avatars/upload'])
      expect(keys).toContain(known);
    const inTable = new Set(TABLE.map((r) => r.route));
    expect(TABLE.length, 'one row per route').toBe(inTable.size);
    const missing = keys.filter((k) => !inTable.has(k) && !PUBLIC_ROUTES.some((re) => re.test(k)));
    expect(missing, 'routes without a row').toEqual([]);
    expect(
      [...inTable].filter((k) => !keys.includes(k)),
      'rows for routes that do not exist',
    ).toEqual([]);
  });

  it.each(TABLE.map((row) => [row.route, row] as const))('%s', async (_name, row) => {
    // Roles expected to fail go first, so a success (which may change or delete things) cannot mask them.
    const order = [...ROLES].sort((a, b) => Number(row.expect[a] < 300) - Number(row.expect[b] < 300));
    const got: Partial<Record<Role, number>> = {};
    const method = row.route.split(' ')[0]!;
    for (const role of order) {
      const c = await row.call(w, role);
      const who = c.as !== undefined ? c.as : role === 'anon' ? null : w.users[role];
      const res = await send(w, who, method, c.path, c.body);
      got[role] = res.status;
      if (res.status >= 400) expect(res.json, `${role}: error body`).toMatchObject({ detail: expect.any(String) });
      const hidden = row.ownerOnlyId?.(w);
      if (hidden !== undefined && role !== 'owner' && Array.isArray(res.json)) {
        expect(
          (res.json as Array<{ id: number }>).map((x) => x.id),
          `${role} sees the owner's item`,
        ).not.toContain(hidden);
      }
    }
    expect(got).toEqual(row.expect);
  });
});
