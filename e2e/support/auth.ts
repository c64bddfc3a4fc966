import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { linkIn, outboxSnapshot, waitForMail } from './outbox.ts';

export const uniqueEmail = (prefix = 'user'): string => `${prefix}-${randomBytes(4).toString('hex')}@example.test`;

/**
 * Signs in as a person would: the "Continue with Google" button, the built-in provider's page (type the
 * address, send the link), the sign-in mail read from the server's outbox, its link opened in the same
 * browser and confirmed, then back through the callback into the app.
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
