import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

export const uniqueEmail = (prefix = 'user'): string => `${prefix}-${randomBytes(4).toString('hex')}@example.test`;

/**
 * Signs in as a person would: the "Continue with Google" button, the local OpenID provider's account page,
 * back through the callback into the app.
 */
export async function signInWithGoogle(page: Page, email: string, from = '/login'): Promise<void> {
  await page.goto(from);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByRole('button', { name: /continue|sign in/i }).click();
  await expect(page.getByText(email).first()).toBeVisible();
}
