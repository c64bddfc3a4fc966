import { expect, test } from '@playwright/test';
import { signInWithGoogle, uniqueEmail } from '../support/auth.ts';
import { addCharacters, createProjectInUi, expectVideoPlays, projectName } from '../support/factories.ts';

/**
 * Realistic with every provider faked locally (support/fake-providers.ts): the user picks Realistic in the editor,
 * sees each quality's price per video, generates, and gets a video made through the voice and talking-actor
 * providers; the finished draft's "Make realistic" shows its price difference.
 */
test('a user picks Realistic, sees the price, and gets a provider-made video', async ({ page }) => {
  await signInWithGoogle(page, uniqueEmail('realistic'));
  await createProjectInUi(page, projectName('Realistic spec'));
  await addCharacters(page, 'a friendly woman in a bright kitchen', 1);
  // 45 characters: 4 s at 14 a second, so Realistic is 1 + 4 × 0.04 credits.
  await page.getByLabel('Script').fill('This serum changed my mornings. Try it today.');

  const picker = page.getByTestId('render-quality-picker');
  await expect(picker.getByTestId('price-draft')).toHaveText('1.00 credit per video');
  await expect(picker.getByTestId('price-realistic')).toHaveText('1.16 credits per video');
  await expect(page.getByRole('button', { name: /^Generate · 1\.00 credit$/ })).toBeEnabled();
  await picker.locator('label', { hasText: 'Photoreal actor' }).click();
  await expect(picker.getByRole('radio', { name: /Realistic/ })).toBeChecked();
  const generate = page.getByRole('button', { name: /^Generate · 1\.16 credits$/ });
  await expect(generate).toBeEnabled();
  await page.screenshot({ path: '../.tmp/realistic-editor.png', fullPage: true });
  await generate.click();

  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const video = page.getByTestId('job-video').locator('video');
  await expect(video).toBeVisible({ timeout: 110_000 });
  await expectVideoPlays(video);
  await expect(page.getByText('Realistic', { exact: true })).toBeVisible();
  await expect(page.getByText(/Provider cost: fal avatar/)).toBeVisible();
  await expect(page.getByText(/Provider cost: elevenlabs voice/)).toBeVisible();
  // A realistic video is not offered "Make realistic" again.
  await expect(page.getByRole('button', { name: /Make realistic/ })).toBeHidden();
  await page.screenshot({ path: '../.tmp/realistic-job.png', fullPage: true });
});
