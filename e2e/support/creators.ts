import { portraitFixture, type PortraitFixture } from '@hookreel/engine/testing';
import { expect, type Locator, type Page } from '@playwright/test';

/** Puts a test portrait (a face, or one the server refuses) in the Add creator dialog's Photo field. */
export async function setCreatorPhoto(dialog: Locator, kind: PortraitFixture, name: string) {
  await dialog.getByLabel('Photo', { exact: true }).setInputFiles({
    name,
    mimeType: 'image/png',
    buffer: await portraitFixture(kind),
  });
}

/** On /creators: adds a creator called `name` from a portrait, consent confirmed, and waits for the dialog to close. */
export async function addCreator(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add creator' }).click();
  const dialog = page.getByRole('dialog');
  await setCreatorPhoto(dialog, 'portrait', 'eileen.png');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Add creator' }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
}
