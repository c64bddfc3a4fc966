import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { ledger } from '../support/credits.ts';
import { productPhotoFile } from '../support/hook-packs.ts';
import { parseCsv, readZip } from '../support/zip.ts';
import { watchProblems } from '../support/problems.ts';

const TYPES = ['Young woman runner in a park', 'Office worker at a desk'];
const HOOK = 'Glow all day';

/**
 * The wizard and the angle library at the desktop and the phone size; one 12-video pack is rendered, at the
 * desktop size, and its job list and downloads are then opened at the phone size too (decision 152).
 */
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** The pack this run's desktop test rendered, for the phone test to open as the same user. */
let rendered: { email: string; packId: number } | undefined;

for (const { name: size, viewport } of VIEWPORTS) {
  const phone = size === 'phone';
  const shot = (name: string) => `../.tmp/screens/video-design/${name}${phone ? '-phone' : ''}.png`;

  /** The balance in the sidebar; on a phone the sidebar is a drawer, opened from the top bar and closed again. */
  async function expectBalance(page: Page, credits: string) {
    const shown = page.locator('[data-sidebar="sidebar"]').first().getByTestId('credits-balance');
    if (!phone) return expect(shown).toHaveText(credits);
    await page.getByRole('button', { name: /toggle sidebar/i }).click();
    await expect(shown).toHaveText(credits);
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-sidebar="sidebar"]')).toHaveCount(0);
  }

  /** The pack's job list until all 12 are done (a card per video, none failed, a contact sheet on hover), then the download page. */
  async function expectFinishedJobList(page: Page, packId: number) {
    await expect(page).toHaveURL(new RegExp(`/hook-packs/jobs/${packId}$`));
    await expect(page.getByRole('heading', { name: 'Video Generation', exact: true })).toBeVisible();
    const cards = page.getByTestId('pack-job-card');
    await expect(cards).toHaveCount(12);
    for (let n = 1; n <= 12; n++) await expect(cards.filter({ hasText: `Video #${n} ·` })).toHaveCount(1);
    const download = page.getByRole('link', { name: 'Download Videos' });
    await expect(download).toBeVisible({ timeout: 200_000 });
    await expect(page.getByText('All 12 videos are done')).toBeVisible();
    await expect(cards.filter({ hasText: 'Failed' })).toHaveCount(0);
    // Hovering a video shows its contact sheet (6 frames) under the card.
    const third = cards.filter({ hasText: 'Video #3 ·' });
    await page.mouse.move(0, 0); // the pointer may rest where the cards appeared: enter the card from outside
    await third.hover();
    const sheet = page.getByRole('img', { name: 'Contact sheet: 6 frames of Video #3' });
    await expect(sheet).toBeVisible();
    await expect.poll(() => sheet.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: shot('hook-pack-jobs-contact-sheet') });
    await page.mouse.move(0, 0);
    await expect(sheet).toBeHidden();
    await download.click();
    await expect(page).toHaveURL(new RegExp(`/hook-packs/${packId}/download$`));
    await expect(page.getByRole('heading', { name: 'Download Videos', exact: true })).toBeVisible();
  }

  /** Back on the list: the pack's card with its status. */
  async function expectReadyCard(page: Page) {
    await page.goto('/hook-packs');
    const card = page.getByTestId('hook-pack-card');
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Videos Ready')).toBeVisible();
    await expect(card.getByRole('img')).toBeVisible();
    await expect(card.getByRole('link', { name: 'View Details' })).toBeVisible();
  }

  /**
   * The pack the desktop test rendered, opened at the phone size by its owner in a second browser context: the
   * held credits were taken, and the job list, the download page and the list card fit the phone. What the zip
   * holds was checked at the desktop size; here the button still hands over a zip.
   */
  async function expectRenderedPackOnPhone(browser: Browser, pack: { email: string; packId: number }) {
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      const problems = watchProblems(page);
      await signIn(page, pack.email, { at: `/hook-packs/jobs/${pack.packId}` });
      await expectBalance(page, '1.10');
      await expectFinishedJobList(page, pack.packId);
      const [zipDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /Download All \(\.zip\)/ }).click(),
      ]);
      expect(zipDownload.suggestedFilename()).toMatch(/\.zip$/);
      await expectReadyCard(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }

  test.describe(`hook packs (${size})`, () => {
    test.use({ viewport });

    // The phone's own pack stops at Generate, and the phone then opens the pack this run's desktop test rendered
    // (a file's tests run in order on one worker). Run on its own (`-g phone`), with no such pack, the phone test
    // generates its own and checks it as the desktop test does.
    const title = phone
      ? 'create a pack from a product photo up to Generate, then the rendered pack: job list, contact sheet, downloads and list card'
      : 'create a pack from a product photo on the trial alone, two character types, pick characters, approve previews, generate, watch 12 videos finish, download the zip and check its 12 MP4s, captions and manifest; prices are shown before each spend; double clicks charge once';
    test(title, async ({ page, browser }, testInfo) => {
      test.setTimeout(420_000);
      // Nothing on the way may throw in the page or log an error.
      const problems = watchProblems(page);
      const email = uniqueEmail(`hooks-${size}`);
      // The desktop test cuts a photo on white out with the model; the phone's wizard is about its layout, so its
      // photo comes cut out already (a transparent PNG is used as it is, decision 151).
      const photo = await productPhotoFile('#1f6fd1', 'bottle.png', { transparent: phone });
      // The free trial alone pays for the pack (decision 102).
      await signIn(page, email, { at: '/hook-packs' });
      await expectBalance(page, '13.70');

      // The empty list.
      await expect(page.getByRole('heading', { name: 'Hook Packs', exact: true })).toBeVisible();
      await expect(page.getByText('No Hook Packs Yet')).toBeVisible();
      await expect(page.getByText('Create your first hook pack to start generating engaging videos')).toBeVisible();
      await page.getByRole('link', { name: 'Create Hook Pack' }).click();
      await expect(page).toHaveURL(/\/hook-packs\/new$/);

      // Step 1: upload and analyse the product.
      await expect(page.getByRole('heading', { name: 'Upload Product', exact: true })).toBeVisible();
      await expect(page.getByText('No product image yet')).toBeVisible();
      await page.getByLabel('Product image').setInputFiles(photo);
      await expect(page).toHaveURL(/\/hook-packs\/new\/\d+$/);
      const packId = Number(/\/hook-packs\/new\/(\d+)$/.exec(page.url())![1]);
      await expect(page.getByRole('img', { name: 'Product' })).toBeVisible();
      const analyze = page.getByRole('button', { name: 'Analyze Product' });
      await expect(analyze).toBeEnabled();
      await analyze.click();
      const detected = page.getByRole('region', { name: 'Detected product' });
      // The ONNX cut-out (desktop) takes ~15 s on an idle 2-core machine and several times that under load.
      await expect(detected).toBeVisible({ timeout: 180_000 });
      await expect(detected.getByRole('definition').first()).not.toHaveText('—');
      const shape = (await detected.getByLabel('Shape').innerText()).trim();
      const category = (await detected.getByLabel('Category').innerText()).trim();
      expect(shape).not.toBe('—');
      expect(category).not.toBe('—');
      testInfo.annotations.push({ type: 'detected', description: `${shape} / ${category}` });
      await page.getByRole('button', { name: 'Continue' }).click();

      // Step 2: two character types. Before the first spend, the whole pack's price (4 characters and up to 4
      // previews per type, 12 videos) and the balance after it, for one type and then for two.
      await expect(page.getByRole('heading', { name: 'Character Type', exact: true })).toBeVisible();
      const estimate = page.getByTestId('pack-cost');
      await page.getByRole('textbox', { name: 'Character type 1', exact: true }).fill(TYPES[0]!);
      await expect(estimate.getByTestId('pack-total')).toHaveText('12.60 credits');
      await expect(estimate.getByTestId('pack-left')).toHaveText('1.10');
      await page.getByRole('button', { name: 'Add Character Type' }).click();
      await page.getByRole('textbox', { name: 'Character type 2', exact: true }).fill(TYPES[1]!);
      await expect(estimate.getByTestId('pack-total')).toHaveText('13.20 credits');
      await expect(estimate.getByTestId('pack-left')).toHaveText('0.50');
      // Double-clicked: the 8 characters are ordered once (the balance below, the holds after Generate).
      await page.getByRole('button', { name: 'Continue · 0.40 credits' }).dblclick();

      // Step 3: hook, language and accent.
      await expect(page.getByRole('heading', { name: 'Hook Message', exact: true })).toBeVisible();
      await page.getByRole('textbox', { name: 'Hook message' }).fill(HOOK);
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'English' }).click();
      await expect(page.getByRole('combobox', { name: 'Language' })).toHaveText('English');
      await page.getByRole('combobox', { name: 'Accent' }).click();
      await page.getByRole('option', { name: 'British' }).click();
      await expect(page.getByRole('combobox', { name: 'Accent' })).toHaveText('British');
      await page.getByRole('button', { name: 'Continue' }).click();

      // Step 4: the generated characters, four per type; pick the first of each type.
      await expect(page.getByRole('heading', { name: 'Characters', exact: true })).toBeVisible();
      for (const type of TYPES) {
        const group = page.getByRole('region', { name: type });
        await expect(group.getByRole('button', { name: /character \d$/ })).toHaveCount(4, { timeout: 60_000 });
        const first = group.getByRole('button', { name: `${type} — character 1` });
        await expect(first).toBeEnabled({ timeout: 60_000 });
        await expect(first).toHaveAttribute('aria-pressed', 'false');
        await first.click();
        await expect(first).toHaveAttribute('aria-pressed', 'true');
      }
      await expect(page.getByText('2 selected')).toBeVisible();
      // 13.70 less the 8 characters, taken once.
      await expectBalance(page, '13.30');
      await page.getByRole('button', { name: 'Continue · 0.20 credits' }).click();

      // Step 5: previews of the two characters holding the product; approve both.
      await expect(page.getByRole('heading', { name: 'Preview', exact: true })).toBeVisible();
      const previews = page.getByRole('article', { name: /^Preview \d/ });
      await expect(previews).toHaveCount(2);
      for (let i = 0; i < 2; i++) {
        const approve = previews.nth(i).getByRole('button', { name: 'Approve' });
        await expect(approve).toBeEnabled({ timeout: 90_000 });
        await expect(previews.nth(i).getByRole('img')).toHaveJSProperty('complete', true);
        await approve.click();
        await expect(previews.nth(i).getByRole('button', { name: 'Approved' })).toHaveAttribute('aria-pressed', 'true');
      }
      await expect(page.getByText('2 approved')).toBeVisible();
      await page.getByRole('button', { name: 'Continue' }).click();

      // Step 6: the 12 character + hook pairs, the user's hook first; Generate.
      await expect(page.getByRole('heading', { name: 'Generate', exact: true })).toBeVisible();
      const pairs = page.getByRole('list', { name: 'Videos to generate' }).getByRole('listitem');
      await expect(pairs).toHaveCount(12);
      await expect(page.getByLabel('Hook line for video 1', { exact: true })).toHaveValue(new RegExp(`^${HOOK}`));
      for (let n = 1; n <= 12; n++) {
        await expect(pairs.nth(n - 1)).toContainText(`Video #${n}`);
        await expect(page.getByLabel(`Hook line for video ${n}`, { exact: true })).not.toHaveValue('');
      }
      // Each line tests its own hook angle (decision 112): 12 labels, no angle twice, the user's hook first.
      const angles = await page.getByTestId('variant-angle').allInnerTexts();
      expect(angles).toHaveLength(12);
      expect(new Set(angles).size).toBe(12);
      expect(angles[0]).toBe('Your hook');
      expect(angles).toEqual(expect.arrayContaining(['POV', 'Problem → agitate', 'Question', 'Before / after']));
      const characterIds = new Set<string>();
      for (let n = 1; n <= 12; n++)
        characterIds.add(await page.getByLabel(`Character for video ${n}`, { exact: true }).inputValue());
      expect(characterIds.size).toBe(2);
      // The pack's caption style: word highlight by default, each preset a rendered picture; a pick is saved at once.
      const styles = page.getByRole('group', { name: 'Caption style' });
      await expect(styles.getByRole('radio', { name: /Word highlight/ })).toBeChecked();
      const styleSaved = page.waitForResponse(
        (r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/hooks/${packId}`),
      );
      await styles.getByText('One word pop').click();
      expect(await (await styleSaved).json()).toMatchObject({ caption_style: 'pop' });
      await page.screenshot({ path: shot('hook-pack-generate-step'), fullPage: true });
      // 13.70 credits, less 8 characters and 2 previews; the 12 videos are held as soon as they are queued.
      await expectBalance(page, '13.10');
      await expect(page.getByTestId('videos-cost')).toHaveText(
        '12 videos cost 12.00 credits. Your balance after: 1.10 credits.',
      );
      const generate = page.getByRole('button', { name: 'Generate 12 videos · 12.00 credits' });
      if (phone && rendered) {
        await expect(generate).toBeEnabled();
        expect(problems).toEqual([]);
        await expectRenderedPackOnPhone(browser, rendered);
        return;
      }
      await generate.dblclick();
      // The wait: measured once this server has rendered videos.
      await expect(
        page
          .getByText(
            /The time left shows once this server has timed a video\.|About \d+ (s|min) left, measured on this server\./,
          )
          .first(),
      ).toBeVisible();
      await expectBalance(page, '1.10');
      // The double click queued the 12 videos once: one hold per video, one per character type's 4 characters,
      // one for the previews (read now, while those holds are on the ledger's first page).
      const holds = (await ledger(page)).filter((e) => e.kind === 'hold');
      expect(holds.filter((e) => e.reason === 'Hook-pack video')).toHaveLength(12);
      expect(holds.filter((e) => e.reason === 'Hook-pack characters')).toHaveLength(TYPES.length);
      expect(holds.filter((e) => e.reason === 'Hook-pack previews')).toHaveLength(1);

      // The pack's job list: 'Video #n' cards until all are done, then the download page: the zip of the whole pack.
      await page.getByRole('link', { name: /View generation jobs/ }).click();
      await expectFinishedJobList(page, packId);
      // The pack finished on the trial alone: the held credits were taken, nothing more.
      await expectBalance(page, '1.10');
      const [zipDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /Download All \(\.zip\)/ }).click(),
      ]);
      expect(zipDownload.suggestedFilename()).toMatch(/\.zip$/);
      const zipPath = testInfo.outputPath(zipDownload.suggestedFilename());
      await zipDownload.saveAs(zipPath);
      const entries = readZip(readFileSync(zipPath));
      const names = entries.map((e) => e.name);
      const base = (n: string) => n.split('/').pop()!;
      const mp4s = entries.filter((e) => e.name.endsWith('.mp4'));
      expect(mp4s).toHaveLength(12);
      expect(names.filter((n) => n.endsWith('.srt'))).toHaveLength(12);
      expect(names.filter((n) => n.endsWith('.vtt'))).toHaveLength(12);
      const manifestEntry = entries.find((e) => base(e.name) === 'manifest.csv');
      expect(manifestEntry, 'manifest.csv in the zip').toBeTruthy();
      const [header, ...rows] = parseCsv(manifestEntry!.data.toString('utf8'));
      for (const column of ['variant_id', 'hook', 'actor', 'cta', 'aspect', 'duration', 'file', 'language', 'accent'])
        expect(header).toContain(column);
      expect(rows).toHaveLength(12);
      const col = (name: string) => header!.indexOf(name);
      expect(rows[0]![col('hook')]).toMatch(new RegExp(`^${HOOK}`));
      for (const row of rows) {
        expect(row[col('language')]!.toLowerCase()).toBe('english');
        expect(row[col('accent')]!.toLowerCase()).toBe('british');
        expect(mp4s.map((e) => base(e.name))).toContain(base(row[col('file')]!));
        expect(row[col('variant_id')]).toMatch(/^H\d+-A\d+-C1$/);
      }
      // Every file is a real MP4: an ISO BMFF 'ftyp' box first.
      for (const mp4 of mp4s) {
        expect(mp4.data.length).toBeGreaterThan(10_000);
        expect(mp4.data.subarray(4, 8).toString('latin1')).toBe('ftyp');
      }
      const srt = entries.find((e) => e.name.endsWith('.srt'))!.data.toString('utf8');
      expect(srt).toMatch(/\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}/);
      const vtt = entries.find((e) => e.name.endsWith('.vtt'))!.data.toString('utf8');
      expect(vtt.startsWith('WEBVTT')).toBe(true);

      await expectReadyCard(page);
      expect(problems).toEqual([]);
      if (!phone) rendered = { email, packId };
    });
  });
}
