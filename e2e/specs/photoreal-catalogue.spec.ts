import { expect, test } from '@playwright/test';
import { FAKE_PROVIDERS_ORIGIN } from '../playwright.config.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { addCharacters, createProjectInUi, expectVideoPlays, projectName } from '../support/factories.ts';
import type { LoggedRequest } from '../support/fake-providers.ts';
import { ledger } from '../support/credits.ts';

/**
 * A catalogue actor made photoreal once (decision 216): the user opens the actor's photo options in the editor,
 * sees the price of the one image before anything is spent, asks for it, sees the photo and "Photo" on the card,
 * and renders in Draft at the Draft price, with no provider called for the video.
 */
test('a user makes a catalogue actor photoreal for its price, then renders it in Draft', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, uniqueEmail('photoreal'));
  await createProjectInUi(page, projectName('Photoreal spec'));
  const [actor] = await addCharacters(page, 'a friendly woman in a bright kitchen', 1);
  await page.getByLabel('Script').fill('This serum changed my mornings. Try it today.');

  await page.getByRole('button', { name: 'Make photoreal…' }).click();
  const dialog = page.getByRole('dialog', { name: `${actor}: photo options` });
  // The price of the one image is on the button before it is pressed; real mouths wait for a photo.
  const make = dialog.getByRole('button', { name: /^Make photoreal · 0\.10 credits$/ });
  await expect(make).toBeEnabled();
  await expect(dialog.getByTestId('look-mouth-stills')).toContainText('Make this actor photoreal first');
  await page.screenshot({ path: '../.tmp/photoreal-price.png', fullPage: true });
  const since = Date.now();
  await make.click();
  await expect(dialog.getByText('Photoreal: Draft videos animate the photo.')).toBeVisible({ timeout: 90_000 });
  await expect(dialog.getByTestId('look-photo')).toHaveText('Photo');
  await expect(dialog.getByRole('img', { name: `${actor} as a photo` })).toHaveJSProperty('complete', true);
  // Now real mouths are offered, priced.
  await expect(dialog.getByRole('button', { name: /^Make real mouths · 0\.50 credits$/ })).toBeEnabled();
  await page.screenshot({ path: '../.tmp/photoreal-made.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Done' }).click();
  // The editor's tile shows the photo and says Photo.
  await expect(page.getByTestId('editor-character').getByTestId('actor-kind')).toHaveText('Photo');

  // One image from the images provider, one charge of its price.
  const afterPhoto = (await (
    await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)
  ).json()) as LoggedRequest[];
  const images = afterPhoto.filter((r) => r.at >= since && r.method === 'POST');
  expect(images.map((r) => r.path)).toEqual(['/v1/images/generations']);
  const charges = (await ledger(page)).filter((e) => e.kind === 'capture');
  expect(charges).toHaveLength(1);

  // The actor picker's card says Photo now.
  await page.getByRole('button', { name: 'Add Character' }).click();
  await page
    .getByRole('dialog', { name: 'Describe your character' })
    .getByRole('button', { name: "I don't know" })
    .click();
  const picker = page.getByRole('dialog', { name: 'Choose characters' });
  const tile = picker.getByRole('button', { name: new RegExp(`${actor} \\(added\\)`) });
  await expect(tile.getByTestId('actor-kind')).toHaveText('Photo');
  await picker.getByRole('button', { name: 'Cancel' }).click();

  // Draft, at the Draft price, offline.
  const generate = page.getByRole('button', { name: /^Generate · 1\.00 credit$/ });
  await expect(generate).toBeEnabled();
  const renderSince = Date.now();
  await generate.click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const video = page.getByTestId('job-video').locator('video');
  await expect(video).toBeVisible({ timeout: 180_000 });
  await expectVideoPlays(video);
  await page.screenshot({ path: '../.tmp/photoreal-draft-job.png', fullPage: true });
  const log = (await (await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)).json()) as LoggedRequest[];
  expect(log.filter((r) => r.at >= renderSince)).toEqual([]);
});
