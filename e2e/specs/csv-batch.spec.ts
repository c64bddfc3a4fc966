import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BATCH_COLUMNS, BATCH_MESSAGES } from '@hookreel/contracts';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { productPhotoFile } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';
import { readZip } from '../support/zip.ts';

/**
 * Batch from a spreadsheet (decision 138) at the desktop and the phone size: the template downloads, a sheet
 * dropped or pasted comes back with every bad cell outlined and the price, nothing is spent until Confirm, a
 * double click queues once, and the batch's progress view ends with each video's download and the zip. One batch
 * is rendered, at the desktop size; the phone opens its progress view rather than rendering its own (decision 152).
 */
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const SHEET = [
  BATCH_COLUMNS.join(','),
  'bottle.png,Actor 2,Stop scrolling,"This serum changed my mornings, honestly.",Shop now,english,british,4:5,boxed',
  'bottle.png,Actor 99,,Nobody plays this one.,,english,american,9:16,sparkles',
].join('\n');

/** The signed-in user's balance as the API reports it (the sidebar sits in a drawer on a phone). */
const creditsOf = (page: Page): Promise<number> =>
  page.evaluate(async () => {
    const res = await fetch('/api/user/me', {
      headers: { authorization: `Bearer ${localStorage.getItem('access_token') ?? ''}` },
    });
    return ((await res.json()) as { credits: number }).credits;
  });

/** The batch this run's desktop test confirmed and rendered, for the phone test to open as the same user. */
let rendered: { email: string; batchPath: string } | undefined;

/**
 * The finished batch of the desktop test, opened at the phone size by its owner in a second browser context: the
 * progress view with the video's download of its shape and the zip button. What the zip holds was checked at the
 * desktop size; here the button still hands over a zip.
 */
async function expectRenderedBatchOnPhone(
  browser: Browser,
  batch: { email: string; batchPath: string },
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signIn(page, batch.email, { at: batch.batchPath });
    await expect(page.getByTestId('batch-progress')).toBeVisible();
    const job = page.getByTestId('batch-job');
    await expect(job).toHaveCount(1);
    await expect(job).toContainText('Line 2 · Actor 2');
    await expect(job.getByTestId('job-status')).toHaveAttribute('data-status', 'completed');
    await expect(page.getByTestId('batch-percent')).toHaveText('100%');
    await expect(job.getByRole('link', { name: 'Download (4:5)' })).toHaveAttribute('href', /4x5\.mp4(\?|$)/);
    await page.screenshot({ path: '../.tmp/csv-batch-progress-phone.png', fullPage: true });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all (zip)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

for (const { name: size, viewport } of VIEWPORTS) {
  const phone = size === 'phone';
  test.describe(`batch from CSV (${size})`, () => {
    test.use({ viewport });

    // The phone checks its own pasted sheet up to Confirm, then opens the batch this run's desktop test rendered (a
    // file's tests run in order on one worker). Run on its own (`-g phone`), with no such batch, the phone test
    // confirms and follows its own.
    test('check a sheet with errors, see the price, confirm once, follow the batch and download', async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(420_000);
      const problems = watchProblems(page);
      const email = uniqueEmail(`batch-${size}`);
      await signIn(page, email);

      // Reachable from New video (desktop) and from the sidebar (phone: its drawer).
      if (phone) {
        await page.getByRole('button', { name: /toggle sidebar/i }).click();
        await page.locator('[data-sidebar="sidebar"]').first().getByRole('link', { name: 'Batch from CSV' }).click();
      } else {
        await page.goto('/new-video');
        await page
          .getByRole('main')
          .getByRole('link', { name: /Batch from CSV/ })
          .click();
      }
      await expect(page).toHaveURL(/\/batches$/);
      await expect(page.getByRole('heading', { name: 'Batch from CSV' })).toBeVisible();

      // The template downloads with every column.
      const [template] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download template' }).click(),
      ]);
      expect(template.suggestedFilename()).toBe('hookreel-batch-template.csv');
      expect(readFileSync(await template.path(), 'utf8').split('\r\n')[0]).toBe(BATCH_COLUMNS.join(','));

      const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-batch-'));
      const product = await productPhotoFile('#c0392b', 'bottle.png', { transparent: true });
      if (phone) {
        // Pasted rows, and the product image chosen beside them.
        await page.getByLabel('Or paste rows').fill(SHEET);
        await page.getByTestId('batch-file-input').setInputFiles(product);
      } else {
        const sheet = path.join(dir, 'spring-tests.csv');
        writeFileSync(sheet, SHEET);
        await page.getByTestId('batch-file-input').setInputFiles([sheet, product]);
        await expect(page.getByTestId('batch-sheet-name')).toContainText('spring-tests.csv');
        await expect(page.getByLabel('Batch name')).toHaveValue('spring-tests');
      }
      await expect(page.getByRole('list', { name: 'Product images' })).toContainText('bottle.png');
      const before = await creditsOf(page);
      await page.screenshot({ path: `../.tmp/csv-batch-upload-${size}.png`, fullPage: true });
      await page.getByRole('button', { name: 'Check rows' }).click();

      // The review: line 2 ready, line 3 skipped with its two refused cells outlined and explained.
      await expect(page).toHaveURL(/\/batches\/\d+$/);
      await expect(page.getByTestId('batch-summary')).toContainText('1 of 2 rows ready');
      await expect(page.getByTestId('batch-total')).toHaveText('1.00 credit');
      const bad = page.locator('[data-testid="batch-row"][data-line="3"]');
      await expect(bad).toHaveAttribute('data-valid', 'false');
      await expect(bad.locator('td[data-error="true"]')).toHaveCount(2);
      await expect(bad.locator('td[data-column="actor"]')).toContainText(BATCH_MESSAGES.actorUnknown('Actor 99'));
      await expect(page.getByTestId('batch-error').first()).toContainText('Line 3, Actor:');
      const good = page.locator('[data-testid="batch-row"][data-line="2"]');
      await expect(good.locator('td[data-error="true"]')).toHaveCount(0);
      await expect(good.locator('td[data-column="product"] img')).toBeVisible();
      expect(await creditsOf(page), 'nothing is charged before Confirm').toBe(before);
      await page.screenshot({ path: testInfo.outputPath('review.png'), fullPage: true });
      await page.screenshot({ path: `../.tmp/csv-batch-review-${size}.png`, fullPage: true });

      // A double click queues one batch and holds one video's credits.
      const confirm = page.getByRole('button', { name: 'Confirm 1 video · 1.00 credit' });
      if (phone && rendered) {
        await expect(confirm).toBeEnabled();
        expect(problems).toEqual([]);
        await expectRenderedBatchOnPhone(browser, rendered, viewport);
        return;
      }
      await confirm.dblclick();
      await expect(page.getByTestId('batch-progress')).toBeVisible();
      const batchPath = new URL(page.url()).pathname;
      const job = page.getByTestId('batch-job');
      await expect(job).toHaveCount(1);
      await expect(job).toContainText('Line 2 · Actor 2');
      expect(await creditsOf(page)).toBeCloseTo(before - 1, 2);

      // The one progress view follows the render to its end.
      await expect(job.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 300_000 });
      await expect(page.getByTestId('batch-percent')).toHaveText('100%');
      // Line 2 asked for 4:5: its download is that shape's export.
      const download = job.getByRole('link', { name: 'Download (4:5)' });
      await expect(download).toHaveAttribute('href', /4x5\.mp4(\?|$)/);
      await page.screenshot({ path: testInfo.outputPath('progress.png'), fullPage: true });
      await page.screenshot({ path: `../.tmp/csv-batch-progress-${size}.png`, fullPage: true });

      const [zip] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download all (zip)' }).click(),
      ]);
      expect(zip.suggestedFilename()).toMatch(/\.zip$/);
      expect(
        readZip(readFileSync(await zip.path()))
          .map((e) => e.name)
          .sort(),
      ).toEqual(['line-002-4x5-actor-2.mp4', 'manifest.csv']);
      expect(await creditsOf(page)).toBeCloseTo(before - 1, 2);
      expect(problems).toEqual([]);
      if (!phone) rendered = { email, batchPath };
    });
  });
}
