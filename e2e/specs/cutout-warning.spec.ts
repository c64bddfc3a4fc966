import { expect, test } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { ledger } from '../support/credits.ts';
import { badBackgroundPhotoFile, productPhotoFile } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';
import { catalogueTiles } from '../support/factories.ts';

/**
 * A product photo with a bad background, uploaded as a new user would (decision 214): after the free analysis
 * the product step warns, with the cut-out on a checkerboard, before anything is paid; Continue waits until the
 * user accepts the cut-out or uploads another photo. Nothing is spent on the way.
 */
test('a bad-background photo shows the cut-out warning with its preview before anything is paid', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  await signIn(page, uniqueEmail('cutout'), { at: '/hook-packs/new' });
  const spentBefore = (await ledger(page)).length;

  await expect(page.getByRole('heading', { name: 'Upload Product', exact: true })).toBeVisible();
  await page.getByLabel('Product image').setInputFiles(await badBackgroundPhotoFile());
  await expect(page).toHaveURL(/\/hook-packs\/new\/\d+$/);
  await page.getByRole('button', { name: 'Analyze Product' }).click();

  const warning = page.getByTestId('cutout-warning');
  await expect(warning).toBeVisible({ timeout: 120_000 });
  await expect(warning.getByRole('heading', { name: 'Check the cut-out before you go on' })).toBeVisible();
  await expect(warning).toContainText("runs into the photo's edge");
  const preview = page.getByRole('img', { name: 'Product cut-out preview on a checkerboard' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(600);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await warning.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '../.tmp/screens/cutout-warning.png', fullPage: true });

  // Accepting is recorded: the warning goes, the choice stays after a reload, and the wizard goes on.
  await page.getByRole('button', { name: 'Use this cut-out anyway' }).click();
  await expect(warning).toBeHidden();
  await expect(page.getByText('Cut-out accepted as it is')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Cut-out accepted as it is')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();

  // Another photo is a new cut-out with its own check: a clean one needs nothing.
  await page
    .getByLabel('Product image')
    .setInputFiles(await productPhotoFile('#1f7a4d', 'clean.png', { transparent: true }));
  await expect(page.getByTestId('cutout-review')).toBeHidden();
  await page.getByRole('button', { name: /Analyze/ }).click();
  await expect(page.getByText('Cut-out looks clean')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();

  expect((await ledger(page)).length).toBe(spentBefore);
  expect(problems).toEqual([]);
});

/**
 * The same photo for product in hand: the merge page checks the cut-out for free before Apply is offered, warns
 * with the preview, and Apply (the paid merge) waits until the cut-out is accepted.
 */
test('product in hand: the merge page warns with the cut-out preview before Apply is offered', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  await signIn(page, uniqueEmail('cutout-pih'), { at: '/product-in-hand/new' });
  const spentBefore = (await ledger(page)).length;

  await page.getByRole('button', { name: 'Upload product' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload your product' });
  await upload.getByLabel('Product image').setInputFiles(await badBackgroundPhotoFile());
  await upload.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/product-in-hand\/\d+\/select-actor$/);
  const tile = catalogueTiles(page).first();
  await tile.click();
  await expect(tile).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Apply Product' })).toBeVisible();

  const warning = page.getByTestId('cutout-warning');
  await expect(warning).toBeVisible({ timeout: 120_000 });
  await expect(warning).toContainText("runs into the photo's edge");
  const preview = page.getByRole('img', { name: 'Product cut-out preview on a checkerboard' });
  await expect.poll(() => preview.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(600);
  const apply = page.getByRole('button', { name: 'Apply product' });
  await expect(apply).toBeDisabled();
  await page.screenshot({ path: '../.tmp/screens/cutout-warning-merge.png', fullPage: true });

  await page.getByRole('button', { name: 'Use this cut-out anyway' }).click();
  await expect(warning).toBeHidden();
  await expect(page.getByText('Cut-out accepted as it is')).toBeVisible();
  await expect(apply).toBeEnabled();
  expect((await ledger(page)).length).toBe(spentBefore);
  expect(problems).toEqual([]);
});
