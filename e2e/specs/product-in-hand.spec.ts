import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { adScript, catalogueTiles, expectVideoPlays, pixelsNear, productPhoto } from '../support/factories.ts';

// A magenta no actor wears: the illustrated actors' clothes include blues close to a blue bottle.
const BOTTLE = '#c81ee0';

async function fetchImage(page: Page, src: string): Promise<Buffer> {
  const res = await page.request.get(src);
  expect(res.ok(), `GET ${src} → ${res.status()}`).toBe(true);
  return res.body();
}

test.describe('product in hand', () => {
  test.setTimeout(180_000);

  test('upload a product photo, pick two actors, position the product on both, write a script, generate, and play both finished videos', async ({
    page,
  }) => {
    const photo = await productPhoto({ colour: BOTTLE });
    await signIn(page, uniqueEmail('pih'));

    // New video → 'Product in hand' → upload dialog → Continue creates the project.
    await page.getByRole('link', { name: 'New Video' }).first().click();
    await expect(page.getByRole('heading', { name: 'Create New Video' })).toBeVisible();
    await page.getByRole('button', { name: /Product in hand/ }).click();
    const upload = page.getByRole('dialog', { name: 'Upload your product' });
    await expect(upload.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await upload.getByLabel('Product image').setInputFiles(photo);
    await expect(upload.getByRole('img', { name: 'Product preview' })).toBeVisible();
    await upload.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/product-in-hand\/\d+\/select-actor$/);
    const projectId = Number(/\/product-in-hand\/(\d+)\//.exec(page.url())![1]);
    await expect(page.getByText('Project created successfully.')).toBeVisible();

    // Pick two actors.
    await expect(page.getByRole('heading', { name: 'Select Actors' })).toBeVisible();
    const continueBtn = page.getByRole('button', { name: 'Continue' });
    await expect(continueBtn).toBeDisabled();
    const tiles = catalogueTiles(page);
    await expect(tiles.first()).toBeVisible();
    const names: string[] = [];
    for (const i of [0, 1]) {
      const tile = tiles.nth(i);
      names.push((await tile.locator('span.truncate').innerText()).trim());
      await tile.click();
      await expect(tile).toHaveAttribute('aria-pressed', 'true');
    }
    await expect(page.getByText('2 actor(s) selected')).toBeVisible();
    await continueBtn.click();
    await expect(page).toHaveURL(new RegExp(`/product-in-hand/${projectId}/merge$`));
    await expect(page.getByRole('heading', { name: 'Apply Product' })).toBeVisible();

    const generate = page.getByRole('button', { name: 'Generate Videos' });
    await expect(generate).toBeDisabled();

    // Position the product on each actor by dragging it on the canvas, then Apply.
    const portraits: string[] = [];
    for (const [i, name] of names.entries()) {
      const card = page.getByTestId('merge-card').filter({ hasText: name });
      const portrait = card.getByRole('img', { name, exact: true });
      await expect(portrait).toBeVisible();
      portraits.push((await portrait.getAttribute('src'))!);
      await card.getByRole('button', { name: 'Apply product' }).click();
      const editor = page.getByRole('dialog', { name: `Position product · ${name}` });
      await expect(editor).toBeVisible();
      await expect(editor.getByLabel('Loading images')).toBeHidden();
      const canvas = editor.getByRole('img', { name: /Product placement/ });
      const before = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
      const box = (await canvas.boundingBox())!;
      const from = { x: box.x + box.width * 0.5, y: box.y + box.height * 0.62 };
      const to = { x: box.x + box.width * (i === 0 ? 0.38 : 0.62), y: box.y + box.height * 0.56 };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(to.x, to.y, { steps: 12 });
      await page.mouse.up();
      await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL())).not.toBe(before);
      await editor.getByRole('button', { name: 'Apply' }).click();
      await expect(editor).toBeHidden();
      await expect(card.getByText('Applying product…').or(card.getByText('Merged'))).toBeVisible();
    }

    // Both merges finish (the product cutout runs once per product, ~15 s the first time).
    const merged = names.map((name) => page.getByRole('img', { name: `${name} holding the product` }));
    for (const img of merged) await expect(img).toBeVisible({ timeout: 90_000 });
    await expect(page.getByText(`2 of 2 actor(s) ready`)).toBeVisible();

    // The merged image really contains the product: far more bottle-coloured pixels than the plain portrait.
    for (const [i, img] of merged.entries()) {
      const mergedSrc = (await img.getAttribute('src'))!;
      expect(mergedSrc).not.toBe(portraits[i]);
      const [withProduct, plain] = await Promise.all([fetchImage(page, mergedSrc), fetchImage(page, portraits[i]!)]);
      expect(withProduct.equals(plain)).toBe(false);
      const bottleInMerged = await pixelsNear(withProduct, BOTTLE);
      const bottleInPortrait = await pixelsNear(plain, BOTTLE);
      expect(bottleInMerged, `bottle pixels: merged ${bottleInMerged}, portrait ${bottleInPortrait}`).toBeGreaterThan(
        bottleInPortrait + 200,
      );
    }

    // Script, then Generate Videos (enabled only now) → /jobs.
    await expect(generate).toBeDisabled();
    await page.getByLabel('Script').fill(adScript('Magenta bottle'));
    // The project's caption style is chosen here too (saved with the script when the videos are queued).
    await page.getByRole('group', { name: 'Caption style' }).getByText('Lower third').click();
    await expect(page.getByRole('radio', { name: /Lower third/ })).toBeChecked();
    await page.screenshot({ path: '../.tmp/screens/video-design/product-in-hand-merge.png', fullPage: true });
    await expect(generate).toBeEnabled();
    // The save Generate makes (the script's own autosave may answer first, with the style as it was).
    const saved = page.waitForResponse(
      (r) =>
        r.request().method() === 'PUT' &&
        /\/api\/projects\/\d+$/.test(r.url()) &&
        (r.request().postData() ?? '').includes('caption_style'),
    );
    await generate.click();
    expect(await (await saved).json()).toMatchObject({ caption_style: 'lower_third' });
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page.getByText(/Job queued successfully\./)).toBeVisible();

    // Both videos finish.
    const cards = page.getByTestId('job-card');
    await expect(cards).toHaveCount(2);
    await expect(async () => {
      const statuses = await cards.getByTestId('job-status').evaluateAll((els) => els.map((e) => e.dataset.status));
      expect(statuses).not.toContain('failed');
      expect(statuses).toEqual(['completed', 'completed']);
    }).toPass({ timeout: 90_000, intervals: [250] });

    // Open each one and watch it play.
    const links = await cards.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    expect(new Set(links).size).toBe(2);
    for (const href of links) {
      await page.getByTestId('job-card').locator(`a[href="${href}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole('heading', { name: 'Job Details' })).toBeVisible();
      await expect(page.getByTestId('job-status')).toHaveText('Done');
      const { poster } = await expectVideoPlays(page.locator('video'));
      // The video shows the actor holding the product: its poster frame has the bottle in it.
      const bottleInPoster = await pixelsNear(await fetchImage(page, poster), BOTTLE);
      expect(bottleInPoster, `bottle pixels in the poster of ${href}`).toBeGreaterThan(200);
      await page.getByRole('link', { name: 'Back to Jobs' }).click();
      await expect(page).toHaveURL(/\/jobs$/);
    }
  });
});
