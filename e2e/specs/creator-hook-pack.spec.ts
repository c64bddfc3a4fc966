import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TRAINED_ALGORITHMIC_MEDIA, readProvenance } from '@hookreel/engine/provenance';
import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { addCreator } from '../support/creators.ts';
import { uploadPackProduct } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';
import { manifestRows, readZip } from '../support/zip.ts';

const TYPE = 'Young woman runner in a park';
const HOOK = 'This serum woke my skin up';
const CREATOR = 'Eileen';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The screen at the phone's and the desktop's width, full page, into .tmp (looked at, not compared). */
async function shoot(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `../.tmp/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `../.tmp/${name}-desktop.png`, fullPage: true });
}

/**
 * Own creators in a hook pack (issue #29, decision 207): a user adds a creator from a photo (the public-domain
 * astronaut test portrait) and sees their card loop a short preview of them talking, picks them at the pack's Characters step beside the drawn characters (Photo vs
 * Illustrated, said plainly), approves their preview holding the product, renders the pack's matrix with them, and
 * downloads the zip. The video talks (the photo actor's report lines on its job details, all passed) and carries
 * the AI provenance saying a real person's photo was animated, read back with the library that wrote it.
 */
test('a creator in a hook pack: pick them as a Photo character, render, download; the video talks and says it is AI-made', async ({
  page,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize(DESKTOP);
  const problems = watchProblems(page);
  await signIn(page, uniqueEmail('pack-creator'), { at: '/creators' });

  // The creator, from a photo of a person who agreed.
  await addCreator(page, CREATOR);
  const creatorCard = page.getByTestId('creator-card');
  await expect(creatorCard).toContainText(CREATOR);
  // Their card shows the photo, then (rendered once in the background) a muted loop of them talking.
  const talking = creatorCard.getByTestId('actor-talking-preview');
  await expect(talking).toBeVisible({ timeout: 180_000 });
  await expect(creatorCard.getByTestId('preview-pending')).toHaveCount(0);
  await expect
    .poll(() => talking.evaluate((v: HTMLVideoElement) => v.muted && v.loop && v.currentTime > 0.3), {
      timeout: 20_000,
    })
    .toBe(true);
  await shoot(page, 'creators-talking-preview');

  // A pack: product, one type of drawn character (the step says they are illustrated), the hook.
  await page.goto('/hook-packs/new');
  const packId = await uploadPackProduct(page, '#3a6ab2');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(/These are illustrated: drawn, made-up people, not photos of anyone/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Character type 1', exact: true }).fill(TYPE);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Hook message' }).fill(HOOK);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Characters: the creator beside the drawn ones, each marked; picking the creator adds them to the pack.
  await expect(page.getByText(/Illustrated characters are drawn by Hookreel from your descriptions/)).toBeVisible();
  const drawn = page.getByRole('region', { name: TYPE });
  await expect(drawn.getByRole('button', { name: `${TYPE} — character 1` })).toBeEnabled({ timeout: 60_000 });
  await expect(drawn.getByTestId('actor-kind').first()).toHaveText('Illustrated');
  const mine = page.getByRole('region', { name: 'Your creators' });
  const creatorTile = mine.getByRole('button', { name: `${CREATOR} — your creator` });
  await expect(creatorTile.getByTestId('actor-kind')).toHaveText('Photo · yours');
  await expect(creatorTile.getByTestId('actor-talking-preview')).toBeVisible();
  await creatorTile.click();
  await expect(creatorTile).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('selected-count')).toHaveText('1 selected');
  await shoot(page, 'pack-characters-creator');
  await page.getByRole('button', { name: /^Continue/ }).click();

  // The creator's preview: their photo holding the product; approved.
  const preview = page.getByRole('article', { name: `Preview 1 — ${CREATOR}` });
  await expect(preview.getByTestId('actor-kind')).toHaveText('Photo · yours');
  const approve = preview.getByRole('button', { name: 'Approve' });
  await expect(approve).toBeEnabled({ timeout: 90_000 });
  await approve.click();
  await expect(preview.getByRole('button', { name: 'Approved' })).toHaveAttribute('aria-pressed', 'true');
  await shoot(page, 'pack-preview-creator');
  await page.getByRole('button', { name: 'Continue' }).click();

  // The matrix: one hook, the creator (a Photo actor), one call to action: one video.
  await page.getByRole('button', { name: 'Matrix', exact: true }).click();
  await expect(page.getByLabel('Hook 1', { exact: true })).toHaveValue(HOOK);
  const actors = page.getByRole('group', { name: /Actors/ });
  await expect(actors.getByTestId('actor-kind')).toHaveText(['Photo · yours']);
  await expect(actors).toContainText(CREATOR);
  await expect(page.getByTestId('matrix-size')).toHaveText('Grid: 1 hook × 1 actor × 1 CTA = 1 video, 1 ticked');
  await shoot(page, 'pack-matrix-creator');
  await page.getByRole('button', { name: /^Generate 1 video/ }).click();

  await page.getByRole('link', { name: /View generation jobs/ }).click();
  await expect(page).toHaveURL(new RegExp(`/hook-packs/jobs/${packId}$`));
  const card = page.getByTestId('pack-job-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(CREATOR);
  await expect(page.getByRole('link', { name: 'Download Videos' })).toBeVisible({ timeout: 420_000 });

  // Job details: the photo actor's report lines, measured on the finished video: it talks.
  await card.click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed');
  const lines = page.getByTestId('quality-report').getByTestId('quality-line');
  for (const label of ['Face found on the frames', 'Lips follow the voice', 'Same person as the photo']) {
    const line = lines.filter({ hasText: label });
    await expect(line).toHaveCount(1);
    await expect(line).toHaveAttribute('data-level', 'pass');
  }
  // Realistic hook videos are made from descriptions: no "Make realistic" on a creator's video.
  await expect(page.getByRole('button', { name: /Make realistic/ })).toHaveCount(0);
  await shoot(page, 'pack-creator-job');

  // The zip: the video by the creator's name, a real photo and the AI label in the manifest, provenance in the MP4.
  await page.goto(`/hook-packs/${packId}/download`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /Download All \(\.zip\)/ }).click(),
  ]);
  const entries = readZip(readFileSync(await download.path()));
  const manifest = manifestRows(entries);
  expect(manifest).toHaveLength(1);
  expect(manifest[0]).toMatchObject({ actor: CREATOR, real_photo: 'yes', ai_label: 'yes' });
  const mp4 = entries.find((e) => e.name.endsWith('.mp4'))!;
  expect(mp4.name).toMatch(/eileen\.mp4$/);
  const video = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-pack-creator-')), 'video.mp4');
  writeFileSync(video, mp4.data);
  expect(await readProvenance(video)).toMatchObject({
    digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
    software: 'Hookreel',
    realPersonPhoto: true,
  });
  expect(problems).toEqual([]);
});
