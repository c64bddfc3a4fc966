import { existsSync } from 'node:fs';
import path from 'node:path';
import { FREE_CREDITS_GRANT } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID, localClientSecret, signInCallbackUrl } from '../src/auth/oidc/local-provider.ts';
import { PAGE_CSP } from '../src/auth/oidc/pages.ts';
import { SIGN_IN_ERRORS } from '../src/services/auth.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { CookieJar } from './helpers/cookie-jar.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { bearer, registerUser, uniqueEmail } from './helpers/factories.ts';

/**
 * "Continue with Google" against the built-in OpenID provider, driven like a browser: every hop over HTTP,
 * cookies carried by hand, the account picked by posting the "Choose an account" form.
 */
describe.each(TEST_DIALECTS)('OpenID sign-in with the local provider (%s)', (dialect) => {
  let server: TestServer;
  let frontendCallback: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    frontendCallback = `${server.url}/auth/google/callback`;
  });
  afterAll(() => server.close());

  const isFrontendCallback = (url: URL) => url.href.startsWith(frontendCallback);
  const isServerCallback = (url: URL) => url.href.startsWith(signInCallbackUrl(server.ctx.config));

  /** Login → provider → the "Choose an account" page. */
  async function openAccountChooser(jar: CookieJar) {
    const start = `${server.url}/api/auth/google/login?redirect_uri=${encodeURIComponent(frontendCallback)}`;
    const { response, url } = await jar.follow(start);
    expect(response.status).toBe(200);
    expect(url.pathname).toMatch(/^\/api\/oidc\/interaction\/[\w-]+$/);
    return { url, html: await response.text(), response };
  }

  /** Posts the chooser form and follows the provider's redirects up to the server's callback. */
  async function chooseAccount(jar: CookieJar, interactionUrl: URL, fields: Record<string, string>) {
    const res = await jar.fetch(interactionUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(res.status).toBe(303);
    const { location } = await jar.follow(new URL(res.headers.get('location') ?? '', interactionUrl), isServerCallback);
    expect(location).not.toBeNull();
    return location as URL;
  }

  /** The server's callback → the front-end callback page; returns that page's query. */
  async function finishAtServer(jar: CookieJar, serverCallback: URL) {
    const res = await jar.fetch(serverCallback);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(isFrontendCallback(location)).toBe(true);
    return location.searchParams;
  }

  async function signInAs(jar: CookieJar, fields: Record<string, string>) {
    const chooser = await openAccountChooser(jar);
    return finishAtServer(jar, await chooseAccount(jar, chooser.url, fields));
  }

  it('signs a new person in end to end and creates the account with the free credits', async () => {
    const jar = new CookieJar();
    const email = uniqueEmail('oidc');
    const chooser = await openAccountChooser(jar);
    expect(chooser.html).toContain('Choose an account');
    expect(chooser.html).not.toContain('<script');
    expect(chooser.response.headers.get('content-security-policy')).toBe(PAGE_CSP);

    const serverCallback = await chooseAccount(jar, chooser.url, { email });
    expect(serverCallback.searchParams.get('code')).toBeTruthy();
    const result = await finishAtServer(jar, serverCallback);
    expect(result.get('error')).toBeNull();
    const accessToken = result.get('access_token') ?? '';
    expect(result.get('refresh_token')).toBeTruthy();

    const me = await fetch(`${server.url}/api/user/me`, { headers: bearer(accessToken) });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email, credits: FREE_CREDITS_GRANT });
    expect(existsSync(path.join(server.ctx.config.dataDir, 'oidc-signing-key.json'))).toBe(true);
  });

  it('offers recently used accounts and signs the same account in again', async () => {
    const jar = new CookieJar();
    const email = uniqueEmail('again');
    const first = await signInAs(jar, { email });
    const firstId = await server.ctx.tokens.verify(first.get('access_token') ?? '');

    const chooser = await openAccountChooser(jar);
    expect(chooser.html).toContain(`value="${email}"`);
    const second = await finishAtServer(jar, await chooseAccount(jar, chooser.url, { account: email }));
    expect(await server.ctx.tokens.verify(second.get('access_token') ?? '')).toBe(firstId);
  });

  it('links the provider identity to an existing e-mail account instead of making a second one', async () => {
    const user = await registerUser(server);
    const result = await signInAs(new CookieJar(), { email: user.email.toUpperCase() });
    expect(await server.ctx.tokens.verify(result.get('access_token') ?? '')).toBe(user.id);
  });

  it('re-shows the chooser with the documented message for an invalid e-mail', async () => {
    const jar = new CookieJar();
    const chooser = await openAccountChooser(jar);
    const res = await jar.fetch(chooser.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=not-an-email',
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Please enter a valid email address');
  });

  it('refuses a redirect_uri that is not our own callback page (no open redirect)', async () => {
    for (const redirect of [
      'https://evil.example/auth/google/callback',
      `${server.url}/projects`,
      `${server.url.replace('127.0.0.1', 'localhost')}/auth/google/callback`,
      'javascript:alert(1)',
    ]) {
      const res = await fetch(`${server.url}/api/auth/google/login?redirect_uri=${encodeURIComponent(redirect)}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: SIGN_IN_ERRORS.invalidRedirect });
    }
    const ok = await fetch(
      `${server.url}/api/auth/google/login?redirect_uri=${encodeURIComponent(`${server.url}/auth/callback`)}`,
      {
        redirect: 'manual',
      },
    );
    expect(ok.status).toBe(302);
  });

  it('rejects a callback whose state does not match the browser', async () => {
    const jar = new CookieJar();
    const chooser = await openAccountChooser(jar);
    const serverCallback = await chooseAccount(jar, chooser.url, { email: uniqueEmail() });
    serverCallback.searchParams.set('state', 'forged-state');
    const result = await finishAtServer(jar, serverCallback);
    expect(result.get('access_token')).toBeNull();
    expect(result.get('error')).toBe(SIGN_IN_ERRORS.failed);
  });

  it('rejects a callback without the flow cookie (another browser, or expired)', async () => {
    const jar = new CookieJar();
    const chooser = await openAccountChooser(jar);
    const serverCallback = await chooseAccount(jar, chooser.url, { email: uniqueEmail() });
    const result = await finishAtServer(new CookieJar(), serverCallback);
    expect(result.get('access_token')).toBeNull();
    expect(result.get('error')).toBe(SIGN_IN_ERRORS.expired);
  });

  it('requires PKCE: no code_challenge is refused, and a code is useless without its verifier', async () => {
    const authorize = new URL(`${server.url}/api/oidc/auth`);
    authorize.search = new URLSearchParams({
      client_id: LOCAL_CLIENT_ID,
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: signInCallbackUrl(server.ctx.config),
      state: 's',
      nonce: 'n',
    }).toString();
    const refused = await fetch(authorize, { redirect: 'manual' });
    const location = new URL(refused.headers.get('location') ?? '', server.url);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE|code_challenge/);

    const jar = new CookieJar();
    const chooser = await openAccountChooser(jar);
    const serverCallback = await chooseAccount(jar, chooser.url, { email: uniqueEmail() });
    const token = await fetch(`${server.url}/api/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${LOCAL_CLIENT_ID}:${localClientSecret(server.ctx.config)}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: serverCallback.searchParams.get('code') ?? '',
        redirect_uri: signInCallbackUrl(server.ctx.config),
      }).toString(),
    });
    expect(token.status).toBe(400);
    expect(((await token.json()) as { error: string }).error).toMatch(/invalid_(grant|request)/);
  });

  it('passes a cancelled sign-in back to the front end as an error', async () => {
    const jar = new CookieJar();
    await openAccountChooser(jar);
    const flowState = 'whatever';
    const result = await finishAtServer(
      jar,
      new URL(`${signInCallbackUrl(server.ctx.config)}?error=access_denied&state=${flowState}`),
    );
    expect(result.get('error')).toBe(SIGN_IN_ERRORS.cancelled);
  });
});

describe('OpenID sign-in with Google configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Nothing listens on port 9: discovery fails the way an unreachable Google would.
    server = await startTestServer({
      env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER: 'http://127.0.0.1:9' },
    });
  });
  afterAll(() => server.close());

  it('does not expose the local provider', async () => {
    expect((await fetch(`${server.url}/api/oidc/.well-known/openid-configuration`)).status).toBe(404);
  });

  it('sends the browser back with an error when the provider cannot be reached', async () => {
    const res = await fetch(`${server.url}/api/auth/google/login`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.href.startsWith(`${server.url}/auth/google/callback?`)).toBe(true);
    expect(location.searchParams.get('error')).toBe(SIGN_IN_ERRORS.unavailable);
  });
});
