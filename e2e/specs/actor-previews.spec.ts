import { expect, test } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { catalogueTiles, productPhoto } from '../support/factories.ts';
import { watchProblems } from '../support/problems.ts';

/**
 * Before spending, a user sees how an actor will look talking: pointing at a catalogue actor's card has its
 * talking preview made once (decision 219), and the card then plays it, muted and looping.
 */
test('pointing at a catalogue actor makes their talking preview once, and the card plays it', async ({ page }) => {
  test.setTimeout(150_000);
  const problems = watchProblems(page);
  await signIn(page, uniqueEmail('previews'));
  await page.getByRole('link', { name: 'New Video' }).first().click();
  await page.getByRole('button', { name: /Product in hand/ }).click();
  const upload = page.getByRole('dialog', { name: 'Upload your product' });
  await upload.getByLabel('Product image').setInputFiles(await productPhoto({ colour: '#c81ee0' }));
  await upload.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/select-actor$/);

  const tile = catalogueTiles(page).last();
  await expect(tile).toBeVisible();
  await tile.hover();
  const video = tile.getByTestId('actor-talking-preview');
  // Made on this machine's two cores on first ask; another spec may have asked for it already.
  await expect(tile.getByRole('status').or(video)).toBeVisible();
  await expect(video).toBeVisible({ timeout: 120_000 });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.currentTime > 0.3), { timeout: 20_000 })
    .toBe(true);
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted && v.loop)).toBe(true);
  await tile.screenshot({ path: '../.tmp/screens/actor-talking-preview.png' });

  // Another visit: the card already carries the preview, nothing is made again.
  await page.reload();
  await expect(catalogueTiles(page).last().getByTestId('actor-talking-preview')).toBeVisible();
  expect(problems).toEqual([]);
});
