import { expect, type Page } from '@playwright/test';
import { productPhoto } from './factories.ts';

/**
 * New Video → Product in hand: uploads a bottle photo (a cut-out unless `transparent` is false) and lands on the
 * select-actor screen of the project that creates. Returns the project's id.
 */
export async function startProductInHand(
  page: Page,
  colour: string,
  { transparent = true }: { transparent?: boolean } = {},
): Promise<number> {
  await page.getByRole('link', { name: 'New Video' }).first().click();
  await page.getByRole('button', { name: /Product in hand/ }).click();
  const upload = page.getByRole('dialog', { name: 'Upload your product' });
  await upload.getByLabel('Product image').setInputFiles(await productPhoto({ colour, transparent }));
  await upload.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/product-in-hand\/\d+\/select-actor$/);
  return Number(/\/product-in-hand\/(\d+)\//.exec(page.url())![1]);
}

/** Opens the product placement editor of one actor on the merge screen, its images loaded. */
export async function openPlacement(page: Page, name: string) {
  const card = page.getByTestId('merge-card').filter({ hasText: name });
  await card.getByRole('button', { name: 'Apply product' }).click();
  const editor = page.getByRole('dialog', { name: `Position product · ${name}` });
  await expect(editor.getByLabel('Loading images')).toBeHidden();
  return { card, editor };
}

/**
 * On the merge screen: puts the product in one actor's hand where the editor first places it, writes the script,
 * generates, and follows the video's job until it is done (within `timeout` ms).
 */
export async function renderWithProduct(page: Page, name: string, script: string, timeout: number) {
  const { editor } = await openPlacement(page, name);
  await editor.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('img', { name: `${name} holding the product` })).toBeVisible({ timeout: 90_000 });
  await page.getByLabel('Script').fill(script);
  await page.getByRole('button', { name: 'Generate Videos' }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await page.getByTestId('job-card').first().getByRole('link').first().click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout });
}
