import { randomBytes } from 'node:crypto';
import { SESSION_KEYS, TokenPair } from '@hookreel/contracts';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { linkIn, outboxSnapshot, waitForMail } from './outbox.ts';

export const uniqueEmail = (prefix = 'user'): string => `${prefix}-${randomBytes(4).toString('hex')}@example.test`;

/**
 * Signs in as a person would: the "Continue with Google" button, the built-in provider's page (type the
 * address, send the link), the sign-in mail read from the server's outbox, its link opened in the same
 * browser and confirmed, then back through the callback into the app. For the tests about sign-in itself;
 * the others use signIn below.
 */
export async function signInWithGoogle(page: Page, email: string, from = '/login'): Promise<void> {
  await page.goto(from);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await signInOnProviderPage(page, email);
  await expect(page.getByText(email).first()).toBeVisible();
}

/**
 * From the built-in provider's page: type the address, send the link, read the mail from the outbox and open
 * its link in this browser, then confirm. Ends when the browser heads back into the app.
 */
export async function signInOnProviderPage(page: Page, email: string): Promise<void> {
  const before = await outboxSnapshot();
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByRole('button', { name: 'Send sign-in link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();

  const mail = await waitForMail(email, before);
  await page.goto(linkIn(mail, '/api/oidc/interaction/'));
  await page.getByRole('button', { name: `Sign in as ${email}` }).click();
}

/**
 * Signs in through the same OpenID Connect flow as "Continue with Google", over HTTP with the page's own request
 * client (it shares the browser context's cookies): the server's login redirect, the provider's address form, the
 * link from the sign-in mail and its confirm form, every redirect back to the app's callback with its one-time code,
 * and the code traded for tokens with this browser's sign-in cookie, as the callback page does. The tokens go where
 * the app keeps them, then the page opens `at` signed in. The same server checks as the clicked flow, without the
 * page loads and the callback page's pause before it redirects (about 4 s a test). Tests about sign-in itself use
 * signInWithGoogle.
 */
export async function signIn(page: Page, email: string, { at = '/projects' }: { at?: string } = {}): Promise<void> {
  const origin = new URL(at, test.info().project.use.baseURL).origin;
  const http = page.context().request;
  const redirectUri = `${origin}/auth/google/callback`;

  const start = await http.get(`${origin}/api/auth/google/login?redirect_uri=${encodeURIComponent(redirectUri)}`);
  const addressForm = formWithButton(await pageText(start), 'Send sign-in link', start.url());

  const before = await outboxSnapshot();
  const sent = await http.post(addressForm.action, { form: { ...addressForm.fields, email } });
  expect(await pageText(sent)).toContain('Check your e-mail');
  const mail = await waitForMail(email, before);

  const confirm = await http.get(linkIn(mail, '/api/oidc/interaction/'));
  const confirmForm = formWithButton(await pageText(confirm), `Sign in as ${email}`, confirm.url());
  const back = await http.post(confirmForm.action, { form: confirmForm.fields });
  const callback = new URL(back.url());
  expect(`${callback.origin}${callback.pathname}`, 'the provider sends the browser back to the app').toBe(redirectUri);
  const code = callback.searchParams.get('code');
  expect(code, `a sign-in code in ${back.url()}`).toBeTruthy();

  const exchanged = await http.post(`${origin}/api/auth/exchange`, { data: { code } });
  expect(exchanged.status(), await exchanged.text()).toBe(200);
  const tokens = TokenPair.parse(await exchanged.json());

  const state = await page.context().storageState();
  const localStorage = [
    { name: SESSION_KEYS.accessToken, value: tokens.access_token },
    { name: SESSION_KEYS.refreshToken, value: tokens.refresh_token },
  ];
  await page.context().setStorageState({
    cookies: state.cookies,
    origins: [...state.origins.filter((o) => o.origin !== origin), { origin, localStorage }],
  });
  // The app asks who is signed in as it boots; its answer, not the sidebar (a phone keeps that in a drawer).
  const me = page.waitForResponse((r) => r.url() === `${origin}/api/user/me` && r.request().method() === 'GET');
  await page.goto(at);
  const answer = await me;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { email: string }).email).toBe(email);
}

async function pageText(response: APIResponse): Promise<string> {
  const text = await response.text();
  expect(response.status(), `${response.url()}: ${text.slice(0, 500)}`).toBe(200);
  return text;
}

/** The form of an HTML page whose submit button reads `button`: its absolute action and its hidden fields. */
function formWithButton(
  html: string,
  button: string,
  pageUrl: string,
): { action: string; fields: Record<string, string> } {
  const form = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].find(([, , body]) =>
    body!.includes(`>${escapeHtml(button)}</button>`),
  );
  if (!form) throw new Error(`no form with a "${button}" button at ${pageUrl}`);
  const attr = (tag: string, name: string) => unescapeHtml(new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
  const fields: Record<string, string> = {};
  for (const [input] of form[2]!.matchAll(/<input\b[^>]*>/g))
    if (attr(input, 'type') === 'hidden') fields[attr(input, 'name')] = attr(input, 'value');
  return { action: new URL(attr(form[1]!, 'action') || pageUrl, pageUrl).href, fields };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => Object.keys(ESCAPES).find((c) => ESCAPES[c] === e)!);
