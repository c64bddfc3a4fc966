import { existsSync } from 'node:fs';
import path from 'node:path';
import { FREE_CREDITS_GRANT, TokenPair, type User } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID, localClientSecret, signInCallbackUrl } from '../src/auth/oidc/local-provider.ts';
import { PAGE_CSP } from '../src/auth/oidc/pages.ts';
import { SIGN_IN_ERRORS } from '../src/services/account/auth.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { CookieJar } from './helpers/cookie-jar.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { emailSignIn } from './helpers/email-sign-in.ts';
import { bearer, registerUser, uniqueEmail } from './helpers/factories.ts';
import { lastMailTo } from './helpers/outbox.ts';

/**
 * "Continue with Google" against the built-in OpenID provider, driven like a browser: every hop over HTTP,
 * cookies carried by hand, the address typed on the provider's page and the mailed link or code read from
 * the outbox (helpers/email-sign-in.ts).
 */
describe.each(TEST_DIALECTS)('OpenID sign-in with the local provider (%s)', (dialect) => {
  let server: TestServer;
  let flow: ReturnType<typeof emailSignIn>;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    flow = emailSignIn(server);
  });
  afterAll(() => server.close());

  const meOf = async (pair: TokenPair) =>
    (await (await fetch(`${server.url}/api/user/me`, { headers: bearer(pair.access_token) })).json()) as User;

  /** Up to the server's callback with the mailed link; returns the callback URL. */
  async function upToCallback(jar: CookieJar, email: string) {
    const page = await flow.openSignInPage(jar);
    expect((await flow.requestMail(jar, page.url, email)).status).toBe(200);
    return flow.signInWithLink(jar, email);
  }

  it('signs a new person in with the mailed link, creates the account with the free credits', async () => {
    const jar = new CookieJar();
    const email = uniqueEmail('oidc');
    const page = await flow.openSignInPage(jar);
    expect(page.html).toContain('Sign in to Hookreel');
    expect(page.html).not.toContain('<script');
    expect(page.response.headers.get('content-security-policy')).toBe(PAGE_CSP);

    const sent = await flow.requestMail(jar, page.url, email);
    expect(sent.status).toBe(200);
    expect(sent.html).toContain('Check your e-mail');
    expect(sent.html).toContain('DATA_DIR/outbox');
    const mail = await lastMailTo(server, email);
    expect(mail.subject).toMatch(/^Your Hookreel sign-in code: \d{6}$/);

    const serverCallback = await flow.signInWithLink(jar, email);
    expect(serverCallback.searchParams.get('code')).toBeTruthy();
    const result = await flow.finishAtServer(jar, serverCallback);
    expect(result.get('error')).toBeNull();
    expect(result.get('access_token')).toBeNull();
    expect(result.get('refresh_token')).toBeNull();
    const res = await flow.exchange(jar, result.get('code'));
    expect(res.status).toBe(200);
    const pair = TokenPair.parse(await res.json());
    expect(await meOf(pair)).toMatchObject({ email, credits: FREE_CREDITS_GRANT });
    expect(existsSync(path.join(server.ctx.config.dataDir, 'oidc-signing-key.json'))).toBe(true);
  });

  it('signs in with the 6-digit code typed on the page, and the same account again next time', async () => {
    const email = uniqueEmail('code');
    const first = await flow.signInAs(email);

    const jar = new CookieJar();
    const page = await flow.openSignInPage(jar);
    await flow.requestMail(jar, page.url, email);
    const query = await flow.finishAtServer(jar, await flow.signInWithCode(jar, page.url, email));
    const second = TokenPair.parse(await (await flow.exchange(jar, query.get('code'))).json());
    expect((await meOf(second)).id).toBe((await meOf(first)).id);
  });

  it('links the provider identity to an existing verified account instead of making a second one', async () => {
    const user = await registerUser(server);
    const pair = await flow.signInAs(user.email.toUpperCase());
    expect(await server.ctx.tokens.verify(pair.access_token)).toBe(user.id);
  });

  it('re-shows the form with the documented message for an invalid e-mail', async () => {
    const jar = new CookieJar();
    const page = await flow.openSignInPage(jar);
    const res = await flow.requestMail(jar, page.url, 'not-an-email');
    expect(res.status).toBe(422);
    expect(res.html).toContain('Please enter a valid email address');
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
    const serverCallback = await upToCallback(jar, uniqueEmail());
    serverCallback.searchParams.set('state', 'forged-state');
    const result = await flow.finishAtServer(jar, serverCallback);
    expect(result.get('code')).toBeNull();
    expect(result.get('error')).toBe(SIGN_IN_ERRORS.failed);
  });

  it('rejects a callback without the flow cookie (another browser, or expired)', async () => {
    const serverCallback = await upToCallback(new CookieJar(), uniqueEmail());
    const result = await flow.finishAtServer(new CookieJar(), serverCallback);
    expect(result.get('code')).toBeNull();
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

    const serverCallback = await upToCallback(new CookieJar(), uniqueEmail());
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
    await flow.openSignInPage(jar);
    const flowState = 'whatever';
    const result = await flow.finishAtServer(
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

  it('refuses to start with only half a Google configuration', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ ...process.env, DATA_DIR: server.ctx.config.dataDir, GOOGLE_CLIENT_ID: 'id' })).toThrow(
      /GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not/,
    );
    expect(() =>
      loadConfig({ ...process.env, DATA_DIR: server.ctx.config.dataDir, GOOGLE_CLIENT_SECRET: 's' }),
    ).toThrow(/GOOGLE_CLIENT_SECRET is set but GOOGLE_CLIENT_ID is not/);
  });

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
