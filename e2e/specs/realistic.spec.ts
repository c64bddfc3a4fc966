import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL, FAKE_PROVIDERS_ORIGIN } from '../playwright.config.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import {
  adScript,
  addCharacters,
  createProjectInUi,
  expectVideoPlays,
  musicBedWav,
  projectName,
} from '../support/factories.ts';
import type { LoggedRequest } from '../support/fake-providers.ts';
import { balance } from '../support/credits.ts';
import { approveCharacters, describePack, uploadPackProduct } from '../support/hook-packs.ts';
import { renderWithProduct, startProductInHand } from '../support/product-in-hand.ts';

/**
 * Holds every fal request in progress until released: a test that checks an upgrade while it is under way holds
 * it there (the e2e server polls fal every 250 ms, so an unheld job may finish before the page shows it).
 */
const holdFal = async (page: Page, held: boolean) =>
  expect((await page.request.post(`${FAKE_PROVIDERS_ORIGIN}/__fake/fal/${held ? 'hold' : 'release'}`)).ok()).toBe(true);

// A test that fails while holding must not leave the next one's avatar stage waiting.
test.afterEach(async ({ page }) => holdFal(page, false));

/**
 * Realistic with every provider faked locally (support/fake-providers.ts): the user picks Realistic in the editor,
 * sees each quality's price per video, generates, and gets a video made through the voice and talking-actor
 * providers. The actor picked is one of the built-in catalogue's drawings, so the job first has the images
 * provider make that person photoreal (decision 125), and the talking actor animates that, not the drawing.
 */
test('a user picks Realistic, sees the price, and gets a provider-made video', async ({ page }) => {
  await signIn(page, uniqueEmail('realistic'));
  await createProjectInUi(page, projectName('Realistic spec'));
  await addCharacters(page, 'a friendly woman in a bright kitchen', 1);
  // 45 characters: 4 s at 14 a second, so Realistic is 1 + 4 × 0.04 credits.
  await page.getByLabel('Script').fill('This serum changed my mornings. Try it today.');

  const picker = page.getByTestId('render-quality-picker');
  await expect(picker.getByTestId('price-draft')).toHaveText('1.00 credit per video');
  await expect(picker.getByTestId('price-realistic')).toHaveText('1.16 credits per video');
  await expect(page.getByRole('button', { name: /^Generate · 1\.00 credit$/ })).toBeEnabled();
  await picker.locator('label', { hasText: 'Photoreal actor' }).click();
  await expect(picker.getByRole('radio', { name: /Realistic/ })).toBeChecked();
  const generate = page.getByRole('button', { name: /^Generate · 1\.16 credits$/ });
  await expect(generate).toBeEnabled();
  await page.screenshot({ path: '../.tmp/realistic-editor.png', fullPage: true });
  const since = Date.now();
  await generate.click();

  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const video = page.getByTestId('job-video').locator('video');
  await expect(video).toBeVisible({ timeout: 110_000 });
  await expectVideoPlays(video);
  await expect(page.getByText('Realistic', { exact: true })).toBeVisible();
  await expect(page.getByText(/Provider cost: fal avatar/)).toBeVisible();
  await expect(page.getByText(/Provider cost: elevenlabs voice/)).toBeVisible();
  // The catalogue actor was made photoreal first (once for this user), then voiced and animated.
  await expect(page.getByText(/Making the catalogue actor photoreal/)).toBeVisible();
  await expect(page.getByText(/Provider cost: openai images \(gpt-image-1\) 1 image/)).toBeVisible();
  // A realistic video is not offered "Make realistic" again.
  await expect(page.getByRole('button', { name: /Make realistic/ })).toBeHidden();
  await page.screenshot({ path: '../.tmp/realistic-job.png', fullPage: true });
  // No product was placed, so no image edit: the person, the voice, then the talking actor.
  const log = (await (await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)).json()) as LoggedRequest[];
  expect(
    log.filter((r) => r.at >= since && r.method === 'POST').map((r) => (r.provider === 'openai' ? r.path : r.provider)),
  ).toEqual(['/v1/images/generations', 'elevenlabs', 'fal-storage', 'fal-storage', 'fal']);
});

/**
 * A Realistic script longer than the talking-actor model takes (the fakes' OmniHuman: under 30 s) is refused when
 * Generate is pressed, before anything is held or called (decision 183): the reason stands beside Generate and
 * describes it, and goes once the script changes. Shortened, the video is made; an administrator sees what its
 * providers cost, in units and in dollars (decision 177).
 */
test('a Realistic script too long for the talking actor is refused beside Generate; shortened, it is made and its provider cost shown in dollars', async ({
  page,
}) => {
  await signIn(page, ADMIN_EMAIL);
  await createProjectInUi(page, projectName('Too long'));
  await addCharacters(page, 'a calm man in a sunny garden', 1);
  // About 560 characters: some 40 s at 14 characters a second.
  const long = Array.from({ length: 8 }, () => 'This serum changed my mornings and my skin feels new. ').join('');
  await page.getByLabel('Script').fill(long);
  await page.getByTestId('render-quality-picker').locator('label', { hasText: 'Photoreal actor' }).click();
  const generate = page.getByRole('button', { name: /^Generate · / });
  await expect(generate).toBeEnabled();
  const credits = await balance(page).textContent();
  const since = Date.now();
  await generate.click();

  const refusal = page.getByRole('alert').filter({ hasText: 'talking-actor model' });
  await expect(refusal).toHaveText(
    /^This script takes about \d+ s to say; this server's talking-actor model takes at most 29 s of speech\. Shorten the script/,
  );
  await expect(generate).toHaveAccessibleDescription(/takes at most 29 s of speech/);
  await page.screenshot({ path: '../.tmp/realistic-too-long.png', fullPage: true });
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  await expect(balance(page)).toHaveText(credits ?? '');
  const log = (await (await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)).json()) as LoggedRequest[];
  expect(log.filter((r) => r.at >= since)).toEqual([]);

  await page.getByLabel('Script').fill('This serum changed my mornings. Try it today.');
  await expect(refusal).toBeHidden();
  await page.getByRole('button', { name: /^Generate · 1\.16 credits$/ }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  await expect(page.getByTestId('job-video').locator('video')).toBeVisible({ timeout: 110_000 });
  await expect(page.getByTestId('job-provider-cost')).toHaveText(
    /^\d+(\.\d+)? s · 45 characters( · \d+ images?)? · \d+ calls? — \$\d+\.\d\d at list prices of 2026-11$/,
  );
  await page.screenshot({ path: '../.tmp/realistic-provider-cost.png', fullPage: true });
});

/**
 * "Make realistic" on a product-in-hand video of a catalogue actor, placed and merged in Draft (the drawn actor
 * redrawn holding the product): the realistic job has the images provider make that actor a real-looking person,
 * puts the product in their hand with the image edit, speaks the script and has the talking actor animate it.
 */
test('Make realistic on a catalogue actor holding the product: a photoreal person, then the edit, voice and avatar', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, uniqueEmail('realistic-catalogue'));
  await startProductInHand(page, '#c81ee0');
  // A built-in catalogue actor (a new account has none of its own; photo actors an administrator added to the
  // avatar library by another spec may be listed too).
  const tile = page
    .getByTestId('actor-tile')
    .filter({ has: page.locator('span.truncate', { hasText: /^Actor \d+$/ }) })
    .first();
  const name = (await tile.locator('span.truncate').innerText()).trim();
  expect(name).toMatch(/^Actor \d+$/);
  await tile.click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await renderWithProduct(page, name, adScript('Magenta bottle'), 120_000);

  const draftUrl = page.url();
  const since = Date.now();
  await holdFal(page, true);
  await page.getByRole('button', { name: /Make realistic/ }).click();
  await expect(page).not.toHaveURL(draftUrl);
  const upgradeUrl = page.url();

  // Back on the draft, its details say the upgrade is under way (held at the avatar stage) with a link to it, and
  // it is not offered again; the draft's card on /jobs says so too, until the upgrade is done.
  await page.goto(draftUrl);
  const upgrade = page.getByTestId('realistic-upgrade');
  await expect(upgrade).toHaveAttribute('data-status', /^(queued|in_progress)$/);
  await expect(upgrade.getByRole('link', { name: 'View the realistic job' })).toHaveAttribute(
    'href',
    new URL(upgradeUrl).pathname,
  );
  await expect(page.getByRole('button', { name: /Make realistic/ })).toBeHidden();
  await page.screenshot({ path: '../.tmp/realistic-project-upgrade-draft.png', fullPage: true });
  await page.goto('/jobs');
  const onCard = page.getByTestId('job-card').filter({ has: page.getByTestId('realistic-upgrade') });
  await expect(onCard).toHaveCount(1);
  await expect(onCard.getByTestId('realistic-upgrade')).toContainText('Making realistic');
  await page.screenshot({ path: '../.tmp/realistic-project-upgrade-jobs.png', fullPage: true });
  await holdFal(page, false);
  await expect(page.getByTestId('realistic-upgrade')).toBeHidden({ timeout: 150_000 });
  await page.goto(upgradeUrl);
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
  await expect(page.getByText('Realistic', { exact: true })).toBeVisible();
  await expectVideoPlays(page.getByTestId('job-video').locator('video'));
  await expect(page.getByText(/Making the catalogue actor photoreal/)).toBeVisible();
  await page.screenshot({ path: '../.tmp/realistic-catalogue-upgrade.png', fullPage: true });
  const log = (await (await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)).json()) as LoggedRequest[];
  expect(
    log.filter((r) => r.at >= since && r.method === 'POST').map((r) => (r.provider === 'openai' ? r.path : r.provider)),
  ).toEqual(['/v1/images/generations', '/v1/images/edits', 'elevenlabs', 'fal-storage', 'fal-storage', 'fal']);
});

/** A job's details page (not the pack's job list, /hook-packs/jobs/{id}). */
const JOB_DETAILS = /:\d+\/jobs\/\d+$/;
const TYPE = 'Young woman runner in a park';
const HOOK = 'Glow all day';

/** Steps 1-5 of the hook-pack wizard with one character and its approved preview, ending on the Generate step. */
async function packUpToGenerate(page: Page, colour: string) {
  await page.goto('/hook-packs/new');
  await uploadPackProduct(page, colour);
  await describePack(page, TYPE, HOOK);
  await approveCharacters(page, TYPE, 1);
}

/** The Generate step's Matrix mode (one video per ticked cell). */
const toMatrix = (page: Page) => page.getByRole('button', { name: 'Matrix', exact: true }).click();

/**
 * A Realistic hook pack with every provider faked locally. First the Generate step as it opens: Draft or Realistic
 * with each price per video beside the caption style, the voice speed, and the pack's optional music bed (what an
 * operator must set when a provider is missing is covered by the web and API tests). Then, in Matrix mode, the
 * user picks Realistic, generates one video, and the job makes a photoreal person from the character's
 * description, puts the product in their hand with the image edit, speaks the hook, and has the talking-actor
 * provider animate it (the avatar model needs the voice, so it comes last). The MP4 plays and no line of its
 * quality report fails.
 */
test('the Generate step shows Draft and Realistic with their prices, the voice speed and the music bed; a Realistic hook-pack video goes through images, image edit, voice and avatar and passes its report', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await signIn(page, uniqueEmail('realistic-pack'));
  await packUpToGenerate(page, '#7a3ab2');
  const picker = page.getByTestId('render-quality-picker');
  await expect(picker.getByTestId('price-draft')).toHaveText('1.00 credit per video');
  // A hook video is priced at a flat 8 s: 1 + 8 × 0.04.
  await expect(picker.getByTestId('price-realistic')).toHaveText('1.32 credits per video');
  await expect(picker.getByRole('radio', { name: /Draft/ })).toBeChecked();
  await expect(picker.getByRole('radio', { name: /Realistic/ })).toBeEnabled();
  await expect(picker.getByTestId('realistic-unavailable')).toBeHidden();
  await expect(page.getByRole('slider', { name: 'Voice speed' })).toHaveAttribute('aria-valuetext', '1.00x');
  await expect(page.getByRole('button', { name: /^Generate 12 videos · 12\.00 credits$/ })).toBeVisible();
  // The pack's optional music bed, beside its caption style and brand look.
  const bed = page.getByTestId('music-bed-field');
  await expect(bed.getByText(/No music/)).toBeVisible();
  await bed.getByLabel('Upload music').setInputFiles(musicBedWav(2));
  await expect(bed.getByTestId('music-bed-player')).toHaveAttribute('src', /hook-packs\/music-[0-9a-f-]+\.m4a$/);
  await expect(bed.getByRole('button', { name: 'Remove music' })).toBeVisible();
  await page.screenshot({ path: '../.tmp/pack-generate-quality.png', fullPage: true });
  // Removed again: the Realistic video below has the voice only, as it always had.
  await bed.getByRole('button', { name: 'Remove music' }).click();
  await expect(bed.getByText(/No music/)).toBeVisible();

  await toMatrix(page);
  const price = page.getByTestId('matrix-price');
  await expect(price).toContainText('1 video costs 1.00 credits (1.00 each)');
  await picker.locator('label', { hasText: 'Photoreal actor' }).click();
  await expect(picker.getByRole('radio', { name: /Realistic/ })).toBeChecked();
  await expect(price).toContainText('1 video costs 1.32 credits (1.32 each)');
  await page.screenshot({ path: '../.tmp/realistic-matrix.png', fullPage: true });

  const since = Date.now();
  await page.getByRole('button', { name: 'Generate 1 video · 1.32 credits' }).click();
  await page.getByRole('link', { name: /View generation jobs/ }).click();
  await page.getByTestId('pack-job-card').first().click();
  await expect(page).toHaveURL(JOB_DETAILS);
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
  await expectVideoPlays(page.getByTestId('job-video').locator('video'));
  await expect(page.getByText('Realistic', { exact: true })).toBeVisible();
  const lines = page.getByTestId('quality-report').getByTestId('quality-line');
  await expect(lines.first()).toBeVisible();
  const levels = await lines.evaluateAll((els) => els.map((e) => e.getAttribute('data-level')));
  expect(levels).not.toContain('fail');
  await expect(page.getByTestId('quality-verdict')).not.toHaveAttribute('data-level', 'fail');
  await page.screenshot({ path: '../.tmp/realistic-pack-job.png', fullPage: true });

  // What the job asked the providers for, in order (polls and the result download left out).
  const log = (await (await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)).json()) as LoggedRequest[];
  const calls = log
    .filter((r) => r.at >= since && r.method === 'POST')
    .map((r) => (r.provider === 'openai' ? r.path : r.provider));
  expect(calls).toEqual([
    '/v1/images/generations',
    '/v1/images/edits',
    'elevenlabs',
    'fal-storage',
    'fal-storage',
    'fal',
  ]);
  const submitted = log.findIndex((r) => r.at >= since && r.provider === 'fal' && r.method === 'POST');
  expect(log.slice(submitted).some((r) => r.provider === 'fal-cdn' && r.method === 'GET')).toBe(true);
});

/**
 * A draft hook-pack video is made realistic from the pack's job list: the button shows the difference in price,
 * the new job renders the same hook through the providers while the pack's list shows it under way, and the list
 * then shows the realistic video.
 */
test('Make realistic on a draft hook-pack video, from the pack job list', async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, uniqueEmail('pack-upgrade'));
  await packUpToGenerate(page, '#3ab27a');
  await toMatrix(page);
  await page.getByRole('button', { name: 'Generate 1 video · 1.00 credit' }).click();
  await page.getByRole('link', { name: /View generation jobs/ }).click();
  await expect(page).toHaveURL(/\/hook-packs\/jobs\/\d+$/);
  const packJobs = page.url();
  const make = page.getByRole('button', { name: /Make realistic/ });
  // 1 + 8 s × 0.04 for a Realistic hook video, less the 1.00 the draft cost.
  await expect(make).toContainText('0.32', { timeout: 150_000 });
  await expect(make).toBeEnabled();
  await page.screenshot({ path: '../.tmp/realistic-pack-upgrade-list.png', fullPage: true });
  const since = Date.now();
  await holdFal(page, true);
  await make.click();
  await expect(page).toHaveURL(JOB_DETAILS);
  const upgradeUrl = page.url();

  // Back on the pack's list the draft shows its upgrade under way (held at the avatar stage) and is not offered
  // again; once done, the realistic video takes its place.
  await page.goto(packJobs);
  const upgrade = page.getByTestId('realistic-upgrade');
  await expect(upgrade).toBeVisible();
  await expect(upgrade).toHaveAttribute('data-status', /^(queued|in_progress)$/);
  await expect(upgrade.getByRole('link', { name: 'View the realistic job' })).toHaveAttribute(
    'href',
    new URL(upgradeUrl).pathname,
  );
  await expect(page.getByRole('button', { name: /Make realistic/ })).toBeHidden();
  await page.screenshot({ path: '../.tmp/realistic-pack-upgrade-running.png', fullPage: true });
  // The hook-pack list says so on the pack's card, and the card opens the pack's job list.
  await page.goto('/hook-packs');
  const onCard = page.getByTestId('pack-realistic-upgrades');
  await expect(onCard).toContainText('Making 1 video realistic');
  await page.screenshot({ path: '../.tmp/realistic-pack-upgrade-hook-packs.png', fullPage: true });
  await onCard.click();
  await expect(page).toHaveURL(packJobs);
  // The card and the upgrade under it come from one answer: once the card is there, so is the upgrade if it runs.
  await expect(page.getByTestId('pack-job-card')).toHaveCount(1);
  await expect(upgrade).toBeVisible();
  await holdFal(page, false);
  await expect(upgrade).toBeHidden({ timeout: 150_000 });
  await expect(page.getByTestId('pack-job-card')).toHaveCount(1);
  await expect(page.getByRole('button', { name: /Make realistic/ })).toBeHidden();
  await page.getByTestId('pack-job-card').click();
  await expect(page).toHaveURL(upgradeUrl);

  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByText('Realistic', { exact: true })).toBeVisible();
  await expect(page.getByText(HOOK, { exact: true })).toBeVisible();
  await expectVideoPlays(page.getByTestId('job-video').locator('video'));
  const log = (await (await page.request.get(`${FAKE_PROVIDERS_ORIGIN}/__fake/requests`)).json()) as LoggedRequest[];
  expect(
    log.filter((r) => r.at >= since && r.method === 'POST').map((r) => (r.provider === 'openai' ? r.path : r.provider)),
  ).toEqual(['/v1/images/generations', '/v1/images/edits', 'elevenlabs', 'fal-storage', 'fal-storage', 'fal']);
});
