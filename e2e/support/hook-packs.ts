import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import sharp from 'sharp';

/**
 * A product photo as a shopper would upload it: a coloured bottle with a cap and a label on a white background,
 * drawn with sharp and written to a temp file. Returns the file's path. `transparent` leaves the background
 * transparent, as a brand's cut-out PNG: the server takes it as its own cut-out and runs no background-removal
 * model (docs/decisions/151), so specs that are not about the cut-out use it.
 */
export async function productPhotoFile(
  colour = '#1f7a4d',
  name = 'bottle.png',
  { transparent = false }: { transparent?: boolean } = {},
): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    ${transparent ? '' : '<rect width="600" height="800" fill="#ffffff"/>'}
    <rect x="215" y="230" width="170" height="470" rx="36" fill="${colour}"/>
    <rect x="255" y="140" width="90" height="100" rx="10" fill="#2b2b2b"/>
    <rect x="235" y="380" width="130" height="110" rx="6" fill="#f4ead5"/>
  </svg>`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-product-')), name);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

/**
 * A product photo whose background was removed badly before upload (a transparent PNG): the bottle runs off
 * the photo's bottom edge and a patch of the old grey backdrop was left beside it. Its own alpha is its cut-out
 * (decision 151), and the cut-out check asks for a look (decision 214).
 */
export async function badBackgroundPhotoFile(name = 'bad-background.png'): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <rect x="215" y="230" width="170" height="570" rx="36" fill="#b8641c"/>
    <rect x="255" y="140" width="90" height="100" rx="10" fill="#2b2b2b"/>
    <rect x="235" y="380" width="130" height="110" rx="6" fill="#f4ead5"/>
    <rect x="15" y="30" width="150" height="260" fill="#d8d2c8"/>
  </svg>`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-product-')), name);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

/**
 * Wizard step 1 from /hook-packs/new: upload a product photo (a cut-out unless `transparent` is false) and have it
 * analysed. Ends on the analysis, before Continue. Returns the new pack's id.
 */
export async function uploadPackProduct(
  page: Page,
  colour: string,
  { transparent = true }: { transparent?: boolean } = {},
): Promise<number> {
  await page.getByLabel('Product image').setInputFiles(await productPhotoFile(colour, 'bottle.png', { transparent }));
  await expect(page).toHaveURL(/\/hook-packs\/new\/\d+$/);
  const packId = Number(/\/hook-packs\/new\/(\d+)$/.exec(page.url())![1]);
  await page.getByRole('button', { name: 'Analyze Product' }).click();
  await expect(page.getByRole('region', { name: 'Detected product' })).toBeVisible({ timeout: 180_000 });
  return packId;
}

/** Wizard steps 2 and 3 after the analysis: one character type and the hook. Ends on the Characters step. */
export async function describePack(page: Page, type: string, hook: string) {
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Character type 1', exact: true }).fill(type);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Hook message' }).fill(hook);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Wizard steps 4 and 5 from the Characters step: pick the first `count` characters drawn for `type`, then approve
 * each of their previews. Ends on the Generate step.
 */
export async function approveCharacters(page: Page, type: string, count: number) {
  const group = page.getByRole('region', { name: type });
  for (let n = 1; n <= count; n++) {
    const c = group.getByRole('button', { name: `${type} — character ${n}` });
    await expect(c).toBeEnabled({ timeout: 60_000 });
    await c.click();
    await expect(c).toHaveAttribute('aria-pressed', 'true');
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  const previews = page.getByRole('article', { name: /^Preview \d/ });
  await expect(previews).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    const approve = previews.nth(i).getByRole('button', { name: 'Approve' });
    await expect(approve).toBeEnabled({ timeout: 90_000 });
    await approve.click();
    await expect(previews.nth(i).getByRole('button', { name: 'Approved' })).toHaveAttribute('aria-pressed', 'true');
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Generate', exact: true })).toBeVisible();
}
