import { MESSAGES } from '@hookreel/contracts';
import { portraitFixture } from '@hookreel/engine/testing';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL } from '../playwright.config.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { adScript, expectVideoPlays } from '../support/factories.ts';
import { renderWithProduct, startProductInHand } from '../support/product-in-hand.ts';

/** Picks one photo in the avatar library's upload dialog, confirms consent and uploads it. */
async function uploadPhoto(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByTestId('avatar-file-input').setInputFiles({ name, mimeType: 'image/png', buffer });
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: /I have the consent of every person/ }).click();
  await dialog.getByRole('button', { name: 'Upload 1 Avatar(s)' }).click();
}

test.describe('photo actors', () => {
  test('an administrator uploads a portrait: a photo that cannot talk is refused with its reason, a good one is added', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, ADMIN_EMAIL, { at: '/avatars' });
    await expect(page.getByRole('heading', { name: 'All Avatars' })).toBeVisible();
    const total = page.getByText(/avatar\(s\) total/);
    const count = Number((await total.textContent())?.match(/\d+/)?.[0]);

    // Eyes painted shut: the face analysis refuses it and the upload screen says why.
    await uploadPhoto(page, 'eyes-shut.png', await portraitFixture('eyes-closed'));
    await expect(page.getByText(`eyes-shut: ${MESSAGES.avatars.face['eyes-closed']}`)).toBeVisible();
    await expect(total).toHaveText(`${count} avatar(s) total`);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // The portrait is accepted (its face is kept with it on the server) and leads the library.
    await uploadPhoto(page, 'Astronaut.png', await portraitFixture('portrait'));
    await expect(page.getByText(MESSAGES.avatars.uploaded(1))).toBeVisible();
    await expect(total).toHaveText(`${count + 1} avatar(s) total`);
  });

  test('a user renders a video with the photo actor holding the product, plays it and reads its photo checks', async ({
    page,
  }) => {
    test.setTimeout(360_000);
    // The administrator adds the portrait under a name of its own, so this test finds it whatever else is listed.
    const actor = `Astronaut ${Date.now().toString(36)}`;
    await signIn(page, ADMIN_EMAIL, { at: '/avatars' });
    await uploadPhoto(page, `${actor}.png`, await portraitFixture('portrait'));
    await expect(page.getByText(MESSAGES.avatars.uploaded(1))).toBeVisible();
    await page.context().clearCookies();

    // A user makes a product-in-hand video with it: the product is merged onto the photo (the still the render
    // animates, with the face points carried into its frame).
    await signIn(page, uniqueEmail('photo-actor'));
    await startProductInHand(page, '#1e7be0');
    const tile = page.getByTestId('actor-tile').filter({ has: page.locator('span.truncate', { hasText: actor }) });
    await tile.click();
    await expect(tile).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Continue' }).click();
    await renderWithProduct(page, actor, adScript('Blue bottle'), 240_000);

    // The video plays in the browser.
    const { duration } = await expectVideoPlays(page.locator('video'));
    expect(duration).toBeGreaterThan(1.5);

    // Job details carry the photo actor's own report lines, measured on the finished video, every one passed.
    const lines = page.getByTestId('quality-report').getByTestId('quality-line');
    for (const label of [
      'Face found on the frames',
      'Lips follow the voice',
      'Same person as the photo',
      'Blinks every 2–6 s',
      'No seam around the moving face',
    ]) {
      const line = lines.filter({ hasText: label });
      await expect(line).toHaveCount(1);
      await expect(line).toHaveAttribute('data-level', 'pass');
    }
    await expect(lines.filter({ hasText: 'Lips follow the voice' })).toContainText(/correlation 0\.\d+ with the voice/);
  });
});
