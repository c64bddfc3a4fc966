import { expect, test } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { catalogueTiles, productPhoto } from '../support/factories.ts';
import { productPhotoFile } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';

/**
 * A reload, a bookmark or the Back button lands the user where they were: the server already holds the state
 * (the pack's status, the project's chosen actors), so the screens resume from it instead of starting over.
 */
test.describe('resume where you were', () => {
  test.setTimeout(180_000);

  test('the hook pack wizard comes back on the step it was on after a reload and after Back', async ({ page }) => {
    const problems = watchProblems(page);
    // A cut-out PNG: no background model to wait for (decision 151).
    const photo = await productPhotoFile('#1f6fd1', 'bottle.png', { transparent: true });
    await signIn(page, uniqueEmail('resume-pack'), { at: '/hook-packs/new' });

    await page.getByLabel('Product image').setInputFiles(photo);
    await expect(page).toHaveURL(/\/hook-packs\/new\/\d+/);
    await page.getByRole('button', { name: 'Analyze Product' }).click();
    await expect(page.getByRole('region', { name: 'Detected product' })).toBeVisible({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Character Type', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\?step=2$/);
    await page.getByRole('textbox', { name: 'Character type 1', exact: true }).fill('Young woman runner in a park');
    // One type: its 4 characters are the step's spend.
    await page.getByRole('button', { name: 'Continue · 0.20 credits' }).click();
    await expect(page.getByRole('heading', { name: 'Hook Message', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\?step=3$/);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Hook Message', exact: true })).toBeVisible();

    // Back to an earlier step from the stepper: a reload shows that step, not the furthest one the pack reached.
    await page
      .getByRole('navigation', { name: 'Hook pack steps' })
      .getByRole('button', { name: /Character Type/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Character Type', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\?step=2$/);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Character Type', exact: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Character type 1', exact: true })).toHaveValue(
      'Young woman runner in a park',
    );
    await page
      .getByRole('navigation', { name: 'Hook pack steps' })
      .getByRole('button', { name: /Hook Message/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Hook Message', exact: true })).toBeVisible();

    // Away to the list and Back: the same step again.
    await page.goto('/hook-packs');
    await expect(page.getByRole('heading', { name: 'Hook Packs', exact: true })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Hook Message', exact: true })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('the merge page reloaded keeps the chosen actors, and Back to the actor screen shows them picked', async ({
    page,
  }) => {
    const problems = watchProblems(page);
    await signIn(page, uniqueEmail('resume-merge'));
    await page.getByRole('link', { name: 'New Video' }).first().click();
    await page.getByRole('button', { name: /Product in hand/ }).click();
    const upload = page.getByRole('dialog', { name: 'Upload your product' });
    await upload.getByLabel('Product image').setInputFiles(await productPhoto({ colour: '#c81ee0' }));
    await upload.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/product-in-hand\/\d+\/select-actor$/);

    const tiles = catalogueTiles(page);
    await expect(tiles.first()).toBeVisible();
    const names: string[] = [];
    for (const i of [0, 1]) {
      names.push((await tiles.nth(i).locator('span.truncate').innerText()).trim());
      await tiles.nth(i).click();
    }
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/merge$/);
    const cards = page.getByTestId('merge-card');
    await expect(cards).toHaveCount(2);

    // A reload has no navigation state: the page reads the project's saved selection.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Apply Product' })).toBeVisible();
    await expect(cards).toHaveCount(2);
    for (const name of names) await expect(cards.filter({ hasText: name })).toHaveCount(1);

    await page.goBack();
    await expect(page).toHaveURL(/\/select-actor$/);
    await expect(page.getByText('2 actor(s) selected')).toBeVisible();
    for (const name of names)
      await expect(tiles.filter({ hasText: name }).first()).toHaveAttribute('aria-pressed', 'true');
    expect(problems).toEqual([]);
  });
});
