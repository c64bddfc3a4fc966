import type { TokenPair } from '@hookreel/contracts';
import { signInCallbackUrl } from '../../src/auth/oidc/local-provider.ts';
import type { TestServer } from './app.ts';
import { CookieJar } from './cookie-jar.ts';
import { codeIn, lastMailTo, linkIn } from './outbox.ts';

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/**
 * "Continue with Google" against the built-in provider, driven like a browser: every hop over HTTP, cookies
 * carried by a CookieJar, the address typed into the provider's page and the link or code read from the
 * outbox like a person reads mail.
 */
export function emailSignIn(server: TestServer) {
  const frontendCallback = () => `${server.url}/auth/google/callback`;
  const isServerCallback = (url: URL) => url.href.startsWith(signInCallbackUrl(server.ctx.config));

  /** Login → provider → the "Sign in to Hookreel" page (the e-mail form). */
  async function openSignInPage(jar: CookieJar) {
    const start = `${server.url}/api/auth/google/login?redirect_uri=${encodeURIComponent(frontendCallback())}`;
    const { response, url } = await jar.follow(start);
    if (response.status !== 200 || !/^\/api\/oidc\/interaction\/[\w-]+$/.test(url.pathname))
      throw new Error(`expected the sign-in page, got ${response.status} at ${url.href}`);
    return { url, html: await response.text(), response };
  }

  /** Types the address and sends the form: the "Check your e-mail" page (or the form again with an error). */
  async function requestMail(jar: CookieJar, pageUrl: URL, email: string) {
    const res = await jar.fetch(pageUrl, form({ email }));
    return { status: res.status, html: await res.text() };
  }

  /** Follows the provider's redirects from a 303 up to our server's callback, which it returns. */
  async function toServerCallback(jar: CookieJar, res: Response, from: URL): Promise<URL> {
    if (res.status !== 303) throw new Error(`expected 303 after sign-in, got ${res.status}: ${await res.text()}`);
    const { location } = await jar.follow(new URL(res.headers.get('location') ?? '', from), isServerCallback);
    if (!location) throw new Error('the provider never came back to the server callback');
    return location;
  }

  /** Opens the mailed link (GET shows a button) and presses "Sign in as …". */
  async function signInWithLink(jar: CookieJar, email: string): Promise<URL> {
    const link = linkIn(await lastMailTo(server, email), `${server.url}/api/oidc/interaction/`);
    const page = await jar.fetch(link);
    if (page.status !== 200) throw new Error(`link page answered ${page.status}: ${await page.text()}`);
    await page.body?.cancel();
    const res = await jar.fetch(new URL(link.pathname, link), form({ token: link.searchParams.get('token') ?? '' }));
    return toServerCallback(jar, res, link);
  }

  /** Types a code on the "Check your e-mail" page; returns the raw response (303 on success). */
  async function postCode(jar: CookieJar, pageUrl: URL, code: string): Promise<Response> {
    return jar.fetch(new URL(`${pageUrl.pathname}/code`, pageUrl), form({ code }));
  }

  async function signInWithCode(jar: CookieJar, pageUrl: URL, email: string): Promise<URL> {
    const res = await postCode(jar, pageUrl, codeIn(await lastMailTo(server, email)));
    return toServerCallback(jar, res, pageUrl);
  }

  /** The server's callback → the front-end callback page; returns that page's query. */
  async function finishAtServer(jar: CookieJar, serverCallback: URL): Promise<URLSearchParams> {
    const res = await jar.fetch(serverCallback);
    const location = new URL(res.headers.get('location') ?? '', server.url);
    if (res.status !== 302 || !location.href.startsWith(frontendCallback()))
      throw new Error(`expected a redirect to the front end, got ${res.status} ${location.href}`);
    return location.searchParams;
  }

  /** What the front-end callback page does with `?code=`: POST it with this browser's cookies. */
  async function exchange(jar: CookieJar, code: string | null): Promise<Response> {
    return jar.fetch(`${server.url}/api/auth/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: code ?? '' }),
    });
  }

  /** The whole sign-in by mailed link, ending with the token pair; throws on any step that fails. */
  async function signInAs(email: string, jar: CookieJar = new CookieJar()): Promise<TokenPair> {
    const page = await openSignInPage(jar);
    const sent = await requestMail(jar, page.url, email);
    if (sent.status !== 200) throw new Error(`sending the sign-in mail failed: ${sent.status}`);
    const query = await finishAtServer(jar, await signInWithLink(jar, email));
    const res = await exchange(jar, query.get('code'));
    if (res.status !== 200) throw new Error(`exchange failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as TokenPair;
  }

  return {
    frontendCallback,
    openSignInPage,
    requestMail,
    signInWithLink,
    signInWithCode,
    postCode,
    finishAtServer,
    exchange,
    signInAs,
  };
}
