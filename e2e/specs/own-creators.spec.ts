import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BATCH_COLUMNS, MESSAGES } from '@hookreel/contracts';
import { TRAINED_ALGORITHMIC_MEDIA, readProvenance } from '@hookreel/engine/provenance';
import { expect, test } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { setCreatorPhoto } from '../support/creators.ts';
import { productPhotoFile } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';
import { manifestRows, readZip } from '../support/zip.ts';

/**
 * Own creators and honest labels (issue #29, decisions 201 and 202): a user adds a creator from a photo of a person
 * who agreed (the public-domain astronaut test portrait: a fixture, never shipped as an actor); a photo without a
 * face is refused with the reason on screen; the creator shows as a Photo in the actor picker; a video of them is
 * rendered from a spreadsheet row naming them, and the zip's MP4 carries the AI provenance, read back with the
 * library that wrote it, and the visible label.
 */
test('add a creator, see refusals and the Photo card, render them and read the provenance from the zip', async ({
  page,
}) => {
  test.setTimeout(420_000);
  // The refused upload answers 422: the browser logs the failed request itself.
  const problems = watchProblems(page, { ignore: /status of 422/ });
  await signIn(page, uniqueEmail('creators'), { at: '/creators' });
  await expect(page.getByRole('heading', { name: 'Your creators' })).toBeVisible();

  // A photo with no face in it: refused, and the dialog says why.
  await page.getByRole('button', { name: 'Add creator' }).click();
  const dialog = page.getByRole('dialog');
  await setCreatorPhoto(dialog, 'no-face', 'suit.png');
  await dialog.getByLabel('Name', { exact: true }).fill('Eileen');
  await expect(dialog.getByRole('button', { name: 'Add creator' })).toBeDisabled();
  await expect(dialog.getByTestId('consent-text')).toContainText('Eileen agreed that their photo and likeness');
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Add creator' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(MESSAGES.avatars.face['no-face']);
  await page.screenshot({ path: '../.tmp/creators-refused.png' });

  // The portrait is accepted: its card says Photo and keeps who agreed, and when.
  await setCreatorPhoto(dialog, 'portrait', 'eileen.png');
  await dialog.getByRole('button', { name: 'Add creator' }).click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  const card = page.getByTestId('creator-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Eileen');
  await expect(card.getByTestId('actor-kind')).toHaveText('Photo · yours');
  await expect(card).toContainText(/Consent confirmed .* by creators-/);
  await page.screenshot({ path: '../.tmp/creators-page.png', fullPage: true });

  // Rename.
  await card.getByRole('button', { name: 'Rename Eileen' }).click();
  await card.getByLabel('Creator name').fill('Eileen C');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('Eileen C');

  // A spreadsheet row names the creator; the video renders (Draft, offline) and comes back in the zip.
  const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-creators-'));
  const sheet = path.join(dir, 'creator-test.csv');
  writeFileSync(
    sheet,
    [
      BATCH_COLUMNS.join(','),
      'bottle.png,Eileen C,,"This serum changed my mornings, honestly.",,english,american,9:16,highlight',
    ].join('\n'),
  );
  await page.goto('/batches');
  const product = await productPhotoFile('#c0392b', 'bottle.png', { transparent: true });
  await page.getByTestId('batch-file-input').setInputFiles([sheet, product]);
  await page.getByRole('button', { name: 'Check rows' }).click();
  await expect(page.getByTestId('batch-summary')).toContainText('1 of 1 rows ready');
  await page.getByRole('button', { name: /^Confirm 1 video/ }).click();
  const job = page.getByTestId('batch-job');
  await expect(job).toContainText('Eileen C');
  await expect(job.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 360_000 });
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (zip)' }).click(),
  ]);
  const entries = readZip(readFileSync(await zip.path()));
  expect(manifestRows(entries)[0]).toMatchObject({ real_photo: 'yes', ai_label: 'yes' });
  const mp4 = entries.find((e) => e.name.endsWith('.mp4'))!;
  const video = path.join(dir, 'video.mp4');
  writeFileSync(video, mp4.data);
  const provenance = await readProvenance(video);
  expect(provenance).toMatchObject({
    digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
    software: 'Hookreel',
    realPersonPhoto: true,
  });
  expect(provenance?.createdAt).toMatch(/^\d{4}:\d\d:\d\d \d\d:\d\d:\d\dZ?$/);
  // A frame to look at: the creator talking with the "AI-generated" label in a corner.
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-ss',
    '1.5',
    '-i',
    video,
    '-frames:v',
    '1',
    '../.tmp/creator-frame.png',
  ]);
  expect(problems).toEqual([]);
});
