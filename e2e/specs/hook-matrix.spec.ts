import { expect, test } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { approveCharacters, describePack, uploadPackProduct } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';

const TYPE = 'Young woman runner in a park';
const HOOK = 'Glow all day';
const HOOK_2 = 'My skin finally looks rested';

test.describe('hook matrix', () => {
  test('2 hooks x 2 actors x 1 CTA: see the grid and its price, untick one cell, generate, and find each video by its cell id', async ({
    page,
  }, testInfo) => {
    test.setTimeout(420_000);
    const problems = watchProblems(page);
    await signIn(page, uniqueEmail('matrix'), { at: '/hook-packs/new' });

    // Steps 1-5 as any pack: product, one character type, the hook, two characters, two approved previews.
    const packId = await uploadPackProduct(page, '#b23a7a');
    await describePack(page, TYPE, HOOK);
    await approveCharacters(page, TYPE, 2);

    // Step 6 in Matrix mode: two hooks, both approved actors, one call to action.
    await page.getByRole('button', { name: 'Matrix', exact: true }).click();
    await expect(page.getByLabel('Hook 1', { exact: true })).toHaveValue(HOOK);
    await page.getByRole('button', { name: 'Add hook' }).click();
    await page.getByLabel('Hook 2', { exact: true }).fill(HOOK_2);
    await expect(page.getByLabel('Call to action 1', { exact: true })).toHaveValue('Shop now');
    const size = page.getByTestId('matrix-size');
    const price = page.getByTestId('matrix-price');
    await expect(size).toHaveText('Grid: 2 hooks × 2 actors × 1 CTA = 4 videos, 4 ticked');
    // The price comes from the server's price list: 1.00 credit a video.
    await expect(price).toContainText('4 videos cost 4.00 credits (1.00 each)');
    // 13.70 trial, less 4 characters and 2 previews.
    await expect(price).toContainText('Your balance after: 9.30 credits.');
    await expect(page.getByTestId('matrix-cell')).toHaveCount(4);

    await page.getByRole('checkbox', { name: 'Video H2-A1-C1' }).uncheck();
    await expect(size).toHaveText('Grid: 2 hooks × 2 actors × 1 CTA = 4 videos, 3 ticked');
    await expect(price).toContainText('3 videos cost 3.00 credits');
    await page.screenshot({ path: testInfo.outputPath('matrix-screen.png'), fullPage: true });
    await page.screenshot({ path: '../.tmp/matrix-screen.png', fullPage: true });

    const sidebar = page.locator('[data-sidebar="sidebar"]').first();
    await page.getByRole('button', { name: 'Generate 3 videos · 3.00 credits' }).click();
    await expect(sidebar.getByText('10.30')).toBeVisible();

    // The pack's job list: one card per ticked cell, each showing its cell id.
    await page.getByRole('link', { name: /View generation jobs/ }).click();
    await expect(page).toHaveURL(new RegExp(`/hook-packs/jobs/${packId}$`));
    const cards = page.getByTestId('pack-job-card');
    await expect(cards).toHaveCount(3);
    await expect(page.getByTestId('variant-id')).toHaveText(['H1-A1-C1', 'H1-A2-C1', 'H2-A2-C1']);
    await expect(cards.filter({ hasText: 'H2-A1-C1' })).toHaveCount(0);
    await expect(cards.filter({ hasText: `“${HOOK_2}”` })).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Download Videos' })).toBeVisible({ timeout: 300_000 });
    await expect(cards.filter({ hasText: 'Failed' })).toHaveCount(0);
    await page.screenshot({ path: '../.tmp/matrix-jobs.png', fullPage: true });
    expect(problems).toEqual([]);
  });
});
