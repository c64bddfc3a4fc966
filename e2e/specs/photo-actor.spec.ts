import { MESSAGES } from '@hookreel/contracts';
import { portraitFixture } from '@hookreel/engine/testing';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL } from '../playwright.config.ts';
import { signIn } from '../support/auth.ts';

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
});
