import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '@hookreel/contracts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { balance, holdsFor } from '../support/credits.ts';
import { adScript, catalogueTiles } from '../support/factories.ts';
import { uploadPackProduct } from '../support/hook-packs.ts';
import { openPlacement, startProductInHand } from '../support/product-in-hand.ts';

/**
 * From the select-actor screen: pick these actors (by name) and continue to the merge screen. The screen starts
 * from the project's saved selection (a second visit finds them picked), so only an unpicked tile is clicked.
 */
async function toMerge(page: Page, projectId: number, names: string[]) {
  await page.goto(`/product-in-hand/${projectId}/select-actor`);
  for (const name of names) {
    const tile = page.getByTestId('actor-tile').filter({ hasText: name }).first();
    await expect(tile).toBeVisible();
    if ((await tile.getAttribute('aria-pressed')) !== 'true') await tile.click();
    await expect(tile).toHaveAttribute('aria-pressed', 'true');
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Apply Product' })).toBeVisible();
}

test.describe('spending buttons charge once per intent', () => {
  test('product in hand: a double-clicked Apply and Generate Videos charge once; a second tab repeating them is told so', async ({
    context,
    page,
  }, testInfo) => {
    test.setTimeout(300_000);
    await signIn(page, uniqueEmail('twice'));
    await expect(balance(page)).toHaveText('13.70');

    // On white, not cut out: the model's cut-out keeps tab 1's merge running while tab 2 applies the same one.
    const projectId = await startProductInHand(page, '#c81ee0', { transparent: false });
    const tiles = catalogueTiles(page);
    await expect(tiles.first()).toBeVisible();
    const names = await Promise.all(
      [0, 1].map(async (i) => (await tiles.nth(i).locator('span.truncate').innerText()).trim()),
    );
    await toMerge(page, projectId, names);

    // A second tab on the same merge screen, opened before anything is applied.
    const tab2 = await context.newPage();
    await toMerge(tab2, projectId, names);

    // Tab 1 double-clicks Apply: one merge, one hold of 0.10. (A second tab applying the same actor while its
    // merge runs is refused: apps/server/test/merge-second-tab.test.ts. Since the cut-out is made before Apply is
    // offered (decision 214), a merge takes under a second, too short a window to hit from a browser.)
    const first = await openPlacement(page, names[0]!);
    await first.editor.getByRole('button', { name: /^Apply/ }).dblclick();
    await expect(first.editor).toBeHidden();
    await expect(first.card.getByText('Applying product…').or(first.card.getByText('Merged'))).toBeVisible();
    expect(await holdsFor(page, 'Product-in-hand merge')).toBe(1);

    const second = await openPlacement(page, names[1]!);
    await second.editor.getByRole('button', { name: /^Apply/ }).dblclick();
    for (const name of names) {
      await expect(page.getByRole('img', { name: `${name} holding the product` })).toBeVisible({ timeout: 120_000 });
    }
    expect(await holdsFor(page, 'Product-in-hand merge')).toBe(2);
    await expect(balance(page)).toHaveText('13.50');

    // A second tab gets ready to queue the same videos before the first one does: two videos render in a few
    // seconds, so a tab that only came to the screen after the first click could find them finished already.
    await page.getByLabel('Script').fill(adScript('Magenta bottle'));
    await toMerge(tab2, projectId, names);
    await tab2.getByLabel('Script').fill(adScript('Magenta bottle'));
    const generate2 = tab2.getByRole('button', { name: 'Generate Videos · 2.00 credits' });
    await expect(generate2).toBeEnabled({ timeout: 30_000 });

    // Generate Videos, double-clicked: one video per actor (2), not 4.
    const generate = page.getByRole('button', { name: 'Generate Videos · 2.00 credits' });
    await expect(generate).toBeEnabled();
    await generate.dblclick();
    await expect(page).toHaveURL(/\/jobs$/);

    // Tab 2 queues the same videos while they render: refused, pointed at Jobs, nothing charged.
    await generate2.click();
    await expect(tab2.getByText(MESSAGES.server.projectVideosInProgress)).toBeVisible();
    await expect(tab2.getByRole('button', { name: 'View jobs' })).toBeVisible();
    await tab2.screenshot({ path: testInfo.outputPath('videos-second-tab.png') });
    expect(await holdsFor(page, 'Product-in-hand video')).toBe(2);
    await expect(page.getByTestId('job-card')).toHaveCount(2);
    await page.reload();
    await expect(balance(page)).toHaveText('11.50');
  });

  test('hook pack: a double-clicked "Generate More", previews "Continue", "Regenerate" and "Save Position" charge once', async ({
    page,
  }) => {
    test.setTimeout(420_000);
    await signIn(page, uniqueEmail('twice-pack'), { at: '/hook-packs/new' });
    await uploadPackProduct(page, '#1f7a4d');
    await page.getByRole('button', { name: /^Continue/ }).click();
    await page.getByRole('textbox', { name: 'Character type 1', exact: true }).fill('Older man gardening');
    await page.getByRole('button', { name: 'Continue · 0.20 credits' }).click();
    await page.getByRole('textbox', { name: 'Hook message' }).fill('Green thumbs only');
    await page.getByRole('button', { name: /^Continue/ }).click();
    await expect(page.getByRole('heading', { name: 'Characters', exact: true })).toBeVisible();
    expect(await holdsFor(page, 'Hook-pack characters')).toBe(1);

    // Generate More, its submit double-clicked: 4 more characters, charged once (0.20).
    await page.getByRole('button', { name: 'Generate More' }).click();
    const more = page.getByRole('dialog', { name: 'Generate More Characters' });
    await more.getByLabel('Character description').fill('Young woman with a watering can');
    await more.getByRole('button', { name: 'Generate 4 · 0.20 credits' }).dblclick();
    await expect(more).toBeHidden();
    const extra = page.getByRole('region', { name: 'Young woman with a watering can' });
    await expect(extra.getByRole('button', { name: /character \d$/ })).toHaveCount(4, { timeout: 120_000 });
    expect(await holdsFor(page, 'Hook-pack characters')).toBe(2);
    await expect(balance(page)).toHaveText('13.30');

    const group = page.getByRole('region', { name: 'Older man gardening' });
    const pick = group.getByRole('button', { name: 'Older man gardening — character 1' });
    await expect(pick).toBeEnabled({ timeout: 120_000 });
    await pick.click();
    await page.getByRole('button', { name: 'Continue · 0.10 credits' }).dblclick();
    await expect(page.getByRole('heading', { name: 'Preview', exact: true })).toBeVisible();
    const preview = page.getByRole('article', { name: /^Preview \d/ }).first();
    await expect(preview.getByRole('button', { name: 'Approve' })).toBeEnabled({ timeout: 120_000 });
    expect(await holdsFor(page, 'Hook-pack previews')).toBe(1);

    // Regenerate, the menu item double-clicked: one new preview, charged once (0.10); Redo waits for it.
    await preview.getByRole('button', { name: /Redo/ }).click();
    await page.getByRole('menuitem', { name: 'Regenerate product placement' }).dblclick();
    await expect(preview.getByRole('button', { name: /Redo/ })).toBeDisabled();
    await expect(preview.getByRole('button', { name: 'Approve' })).toBeEnabled({ timeout: 120_000 });
    expect(await holdsFor(page, 'Hook-pack previews')).toBe(2);
    await expect(balance(page)).toHaveText('13.10');

    // Adjust → Save Position, double-clicked: one new preview at that position, charged once (0.10).
    await preview.getByRole('button', { name: 'Adjust' }).click();
    const editor = page.getByRole('dialog', { name: 'Position Product' });
    await expect(editor.getByLabel('Loading images')).toBeHidden();
    await editor.getByRole('button', { name: 'Save Position · 0.10 credits' }).dblclick();
    await expect(editor).toBeHidden({ timeout: 60_000 });
    await expect(preview.getByRole('button', { name: 'Approve' })).toBeEnabled({ timeout: 120_000 });
    expect(await holdsFor(page, 'Hook-pack previews')).toBe(3);
    await expect(balance(page)).toHaveText('13.00');
  });
});
