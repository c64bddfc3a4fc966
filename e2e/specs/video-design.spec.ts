import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { adScript, expectVideoPlays, musicBedWav, projectWithOneActor } from '../support/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/screens/video-design');

/** An <img> that really loaded (a broken picture has no natural width). */
const expectLoaded = async (img: Locator) =>
  expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);

test.describe('video design', () => {
  test('pick a caption style, generate, read the quality report, skim the contact sheet', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1000 });
    const name = await projectWithOneActor(page, 'video-design', 'Video design');

    // Four presets, each with its preview picture; word highlight is the default.
    const picker = page.getByRole('group', { name: 'Caption style' });
    const radios = picker.getByRole('radio');
    await expect(radios).toHaveCount(4);
    await expect(picker.getByRole('radio', { name: /Word highlight/ })).toBeChecked();
    const pictures = picker.locator('img');
    await expect(pictures).toHaveCount(4);
    for (let i = 0; i < 4; i += 1) await expectLoaded(pictures.nth(i));

    // The pick is saved at once: it is still there after a reload.
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/projects\/\d+$/.test(r.url()));
    await picker.getByText('Boxed lines').click();
    expect((await saved).status()).toBe(200);
    await expect(picker.getByRole('radio', { name: /Boxed lines/ })).toBeChecked();
    await picker.screenshot({ path: path.join(SHOTS, 'caption-style-picker.png') });
    await page.reload();
    await expect(page.getByRole('radio', { name: /Boxed lines/ })).toBeChecked();

    // An optional music bed: none by default; a WAV is checked, stored and played back in the editor.
    const bed = page.getByTestId('music-bed-field');
    await expect(bed.getByText(/No music/)).toBeVisible();
    const stored = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/music$/.test(r.url()));
    await bed.getByLabel('Upload music').setInputFiles(musicBedWav());
    expect((await stored).status()).toBe(200);
    await expect(bed.getByTestId('music-bed-player')).toHaveAttribute('src', /music-[0-9a-f-]+\.m4a$/);
    await bed.screenshot({ path: path.join(SHOTS, 'music-bed.png') });

    await page.getByLabel('Script').fill(adScript('Video design serum'));
    await page.getByRole('button', { name: /^Generate · / }).click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 110_000 });
    await expectVideoPlays(page.locator('video'));

    // The report beside the video: one coloured line per check, every hard rule green.
    const report = page.getByTestId('quality-report');
    const lines = report.getByTestId('quality-line');
    await expect(lines.first()).toBeVisible();
    for (const label of [
      'Text clear of face and product',
      'Text inside the safe zone',
      'Loudness −14 LUFS',
      'True peak ≤ −1 dBTP',
      'Square pixels',
      'Duration',
      'Sound in sync with picture',
      'Mouth moves with the voice',
    ]) {
      await expect(lines.filter({ hasText: label })).toHaveCount(1);
    }
    await expect(lines.filter({ hasText: 'Text clear of face and product' })).toHaveAttribute('data-level', 'pass');
    await expect(lines.filter({ hasText: 'Text inside the safe zone' })).toHaveAttribute('data-level', 'pass');
    await expect(lines.filter({ hasText: 'Square pixels' })).toHaveAttribute('data-level', 'pass');
    await expect(lines.filter({ hasText: 'Loudness' })).toContainText('LUFS integrated');
    const levels = await lines.evaluateAll((els) => els.map((e) => e.getAttribute('data-level')));
    expect(levels).not.toContain('fail');
    const video = page.getByTestId('job-video');
    const [videoBox, reportBox] = [await video.boundingBox(), await report.boundingBox()];
    expect(reportBox!.x).toBeGreaterThan(videoBox!.x + videoBox!.width - 1); // beside, not under, the video

    const full = report.getByRole('link', { name: /Full report/ });
    const json = (await (await page.request.get((await full.getAttribute('href'))!)).json()) as {
      checks: unknown[];
      sar: string;
      overlaps: unknown[];
    };
    expect(json.sar).toBe('1:1');
    expect(json.overlaps).toEqual([]);
    expect(json.checks.length).toBe(await lines.count());
    // The contact sheet is on the job's own page for every pointer (a phone has no hover), and opens full size.
    const ownSheet = page.getByTestId('contact-sheet-card').getByRole('img', { name: /^Contact sheet: 6 frames of / });
    await expectLoaded(ownSheet);
    const sheetHref = await page.getByRole('link', { name: 'Open full size' }).getAttribute('href');
    expect((await page.request.get(sheetHref!)).headers()['content-type']).toMatch(/^image\//);
    await page.screenshot({ path: path.join(SHOTS, 'job-details.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('contact-sheet-card').scrollIntoViewIfNeeded();
    await expect(ownSheet).toBeInViewport();
    await page.screenshot({ path: path.join(SHOTS, 'job-details-phone-contact-sheet.png') });
    await page.setViewportSize({ width: 1280, height: 1000 });

    // The job grid: the contact sheet shows while the pointer is over the card, and with keyboard focus.
    await page.goto('/jobs');
    const card = page.getByTestId('job-card').filter({ hasText: name });
    const poster = card.getByRole('img', { name: `${name} poster` });
    await expect(poster).toBeVisible();
    await expect(card.getByTestId('contact-sheet')).toHaveCount(0);
    await poster.hover();
    const sheet = card.getByRole('img', { name: `Contact sheet: 6 frames of ${name}` });
    await expect(sheet).toBeVisible();
    await expectLoaded(sheet);
    await card.screenshot({ path: path.join(SHOTS, 'job-card-contact-sheet.png') });
    await page.mouse.move(0, 0);
    await expect(sheet).toBeHidden();
    await card.getByRole('link').first().focus();
    await expect(sheet).toBeVisible();
  });
});
