import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PLANS, perMonthUnderYearly, yearlyPriceOf, yearlySavingsOf } from '@hookreel/contracts';
import { expect, test, type Page } from '@playwright/test';
import { SignJWT } from 'jose';
import { signIn, signInOnProviderPage, signInWithGoogle, uniqueEmail } from '../support/auth.ts';

test.describe('sign-in and the shell', () => {
  test('a new user signs in with "Continue with Google" through the local provider and lands on /projects', async ({
    page,
  }) => {
    const email = uniqueEmail('new');
    await signInWithGoogle(page, email);
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByRole('heading', { name: 'Your Projects' })).toBeVisible();
    // The shell: New Video, main links, credits with two decimals, user menu with the e-mail.
    const sidebar = page.locator('[data-sidebar="sidebar"]').first();
    await expect(sidebar.getByRole('link', { name: 'New Video' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Projects' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Generated videos' })).toBeVisible();
    // The free trial (TRIAL_CREDITS' default): a full hook pack and a product-in-hand video.
    await expect(sidebar.getByText('13.70')).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Avatars' })).toHaveCount(0);
    const stored = await page.evaluate(() => [
      localStorage.getItem('access_token'),
      localStorage.getItem('refresh_token'),
    ]);
    expect(stored[0]).toBeTruthy();
    expect(stored[1]).toBeTruthy();
  });

  test('the guard sends an anonymous visit to /login and back to the origin after sign-in', async ({ page }) => {
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Login', { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await signInOnProviderPage(page, uniqueEmail('origin'));
    await expect(page).toHaveURL(/\/settings$/);
  });

  test('unknown paths redirect to /', async ({ page }) => {
    await page.goto('/definitely/not/a/page');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Create an account')).toBeVisible();
  });

  test('an expired access token is refreshed transparently', async ({ page }) => {
    const email = uniqueEmail('refresh');
    await signInWithGoogle(page, email);
    await expect(page).toHaveURL(/\/projects$/);
    const expired = await mintExpiredAccessToken(page);
    const before = await page.evaluate(() => localStorage.getItem('refresh_token'));
    // Plant the expired token before the next page boots, not under the live /projects page: that page would
    // refresh on its own and the navigation could cut its answer off (the refresh token rotated, the new pair lost).
    await plantOnNextLoad(page, expired);
    await page.goto('/settings');
    await expect(page.getByText(email).first()).toBeVisible();
    await expect(page).toHaveURL(/\/settings$/);
    const after = await page.evaluate(() => [
      localStorage.getItem('access_token'),
      localStorage.getItem('refresh_token'),
    ]);
    expect(after[0]).not.toBe(expired);
    expect(after[1]).not.toBe(before);
  });
});

test.describe('settings', () => {
  test('toggle e-mail notifications and delete the account', async ({ page }) => {
    const email = uniqueEmail('settings');
    await signIn(page, email, { at: '/settings' });
    await expect(page.getByText(email).first()).toBeVisible();
    const toggle = page.getByRole('switch', { name: 'Email Notifications' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(page.getByText('Notifications enabled!')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Email Notifications' })).toHaveAttribute('aria-checked', 'true');

    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /delete/i })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    // The account is gone: signing in again with the same e-mail starts a new account with the free credits.
    const tokens = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(tokens).toBeNull();
  });
});

test.describe('public pages', () => {
  test('landing page shows every claim and the computed prices', async ({ page }) => {
    await page.goto('/landing');
    // Figures are measured or counted here, never invented (issue #13): no brands, no video counts.
    for (const invented of ['500+', '10M+', '85%']) await expect(page.getByText(invented)).toHaveCount(0);
    await expect(page.getByText('AI actors in the library')).toBeVisible();
    // The free trial says what it buys (decision 102).
    await expect(page.getByText(/Free trial: a 12-video hook pack \+ 1 product-in-hand video/).first()).toBeVisible();
    await expect(page.getByText(/13\.70 free credits: one hook pack of 12 videos/).first()).toBeVisible();
    await expect(page.getByText(/no credit card required/i).first()).toBeVisible();
    for (const name of ['Starter', 'Growth', 'Scale'])
      await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('credits screen computes yearly prices, savings and per-video prices', async ({ page }) => {
    await signIn(page, uniqueEmail('credits'), { at: '/credits' });
    const growth = PLANS.find((p) => p.id === 'growth')!;
    await expect(page.getByText('Most Popular')).toBeVisible();
    await expect(page.getByText(`$${growth.monthlyPrice}`).first()).toBeVisible();
    await page
      .getByRole('radio', { name: /yearly/i })
      .or(page.getByRole('button', { name: /yearly/i }))
      .first()
      .click();
    await expect(page.getByText('Save 17%').first()).toBeVisible();
    for (const plan of PLANS) {
      await expect(page.getByText(`$${perMonthUnderYearly(plan.monthlyPrice)}`).first()).toBeVisible();
      await expect(page.getByText(new RegExp(`\\$${yearlyPriceOf(plan.monthlyPrice)}`)).first()).toBeVisible();
      await expect(page.getByText(new RegExp(`\\$${yearlySavingsOf(plan.monthlyPrice)}`)).first()).toBeVisible();
    }
  });
});

/** A token for the signed-in user that expired a minute ago, minted with the server's own key, as if the page had sat open. */
async function mintExpiredAccessToken(page: Page): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR_RESOLVED ?? readDataDirFromServer();
  const secret = readFileSync(path.join(dataDir, '.jwt-secret'), 'utf8').trim();
  const me = await page.evaluate(async () => {
    const res = await fetch('/api/user/me', {
      headers: { authorization: `Bearer ${localStorage.getItem('access_token')}` },
    });
    return (await res.json()) as { id: number };
  });
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(me.id))
    .setIssuer('hookreel')
    .setAudience('hookreel-api')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
    .sign(new TextEncoder().encode(secret));
}

/** Puts `token` in place of the access token as each tab's next page boots (once per tab). */
async function plantOnNextLoad(target: Page, token: string): Promise<void> {
  await target.addInitScript((t) => {
    if (sessionStorage.getItem('expired-token-planted')) return;
    sessionStorage.setItem('expired-token-planted', '1');
    localStorage.setItem('access_token', t);
  }, token);
}

function readDataDirFromServer(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  return dir;
}
