import { writeFileSync } from 'node:fs';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACTORS, FIGURE_UNKNOWN, PublicStats, publicFigures, TIMINGS, VALIDATION } from '@hookreel/contracts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { WEBHOOK_RECEIVER_ORIGIN } from '../playwright.config.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { addCharacters, adScript, createProjectInUi, projectName } from '../support/factories.ts';
import { productPhotoFile } from '../support/hook-packs.ts';
import { watchProblems } from '../support/problems.ts';

type Box = { x: number; y: number; width: number; height: number };

const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/screens/ux-studio');
mkdirSync(SHOTS, { recursive: true });

/**
 * Issue #13, "a studio that tells the truth and gets out of the way", at the desktop and the phone size:
 * the server's reasons reach the user, names a person can use, the sidebar and shortcuts do what they say.
 */
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const tempFile = (name: string, bytes: Buffer | string): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-ux-')), name);
  writeFileSync(file, bytes);
  return file;
};

/** The sidebar: on a phone it lives in a drawer opened from the header. */
async function openNav(page: Page, phone: boolean) {
  if (phone) await page.getByRole('button', { name: /toggle sidebar/i }).click();
  return page.locator('[data-sidebar="sidebar"]').first();
}

for (const { name: size, viewport } of VIEWPORTS) {
  const phone = size === 'phone';
  test.describe(`studio ux (${size})`, () => {
    test.use({ viewport });

    test("a refused upload says the server's reason, and leaves no broken preview and no empty pack", async ({
      page,
    }) => {
      await signIn(page, uniqueEmail(`ux-upload-${size}`));

      // New project with an SVG reference: the server's 415 reason, not 'Please try again'.
      await page.goto('/projects/new');
      await page.getByLabel('Name').fill(projectName('Refused file'));
      await page
        .getByLabel('Reference File (optional)')
        .setInputFiles(tempFile('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'));
      await page.getByRole('button', { name: 'Create Project' }).click();
      await expect(page.getByText(VALIDATION.imageRequired)).toBeVisible();
      await expect(page.getByText(/Please try again/)).toHaveCount(0);
      await expect(page).toHaveURL(/\/projects\/new$/);

      // A 15 MB PNG: the 413 reason.
      const big = Buffer.alloc(15 * 1024 * 1024);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
      await page.getByLabel('Reference File (optional)').setInputFiles(tempFile('huge.png', big));
      await page.getByRole('button', { name: 'Create Project' }).click();
      await expect(page.getByText(VALIDATION.fileTooLarge)).toBeVisible();
      await expect(page.getByText(/Please try again/)).toHaveCount(0);

      // Hook pack step 1: a renamed text file is refused before any pack exists; no preview is left on screen.
      await page.goto('/hook-packs/new');
      await page.getByLabel('Product image').setInputFiles(tempFile('notes.png', 'just some notes, not a photo'));
      await expect(page.getByRole('alert')).toHaveText(VALIDATION.imageRequired);
      await expect(page.getByTestId('product-image')).toHaveCount(0);
      await expect(page.getByText('No product image yet')).toBeVisible();
      await expect(page).toHaveURL(/\/hook-packs\/new$/);
      await page.goto('/hook-packs');
      await expect(page.getByText('No Hook Packs Yet')).toBeVisible();
    });

    test('a pack is named in step 1 from the product and the day, and renamed from the list', async ({ page }) => {
      const problems = watchProblems(page);
      await signIn(page, uniqueEmail(`ux-name-${size}`), { at: '/hook-packs/new' });
      await page
        .getByLabel('Product image')
        .setInputFiles(await productPhotoFile('#c2410c', 'glow-serum.png', { transparent: true }));
      await expect(page).toHaveURL(/\/hook-packs\/new\/\d+$/);
      const name = page.getByLabel('Pack name');
      await expect(name).toHaveValue(/^Glow Serum — [A-Z][a-z]{2} \d{1,2}$/);
      const suggested = await name.inputValue();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { name: 'Character Type', exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: suggested, level: 1 })).toBeVisible();

      await page.goto('/hook-packs');
      const card = page.getByTestId('hook-pack-card').first();
      await expect(card.getByRole('heading', { name: suggested })).toBeVisible();
      await card.getByRole('button', { name: `Rename ${suggested}` }).click();
      await card.getByLabel('Pack name').fill('Serum launch week');
      await card.getByLabel('Pack name').press('Enter');
      await expect(card.getByRole('heading', { name: 'Serum launch week' })).toBeVisible();
      await page.reload();
      await expect(
        page.getByTestId('hook-pack-card').first().getByRole('heading', { name: 'Serum launch week' }),
      ).toBeVisible();
      expect(problems).toEqual([]);
    });

    test('hook packs are in the sidebar and on /new-video; a normal user sees no avatar write controls', async ({
      page,
    }) => {
      await signIn(page, uniqueEmail(`ux-nav-${size}`), { at: '/projects' });
      const nav = await openNav(page, phone);
      await nav.getByRole('link', { name: 'Hook packs' }).click();
      await expect(page).toHaveURL(/\/hook-packs$/);
      await expect(page.getByRole('heading', { name: 'Hook Packs', exact: true })).toBeVisible();

      await page.goto('/new-video');
      await page
        .locator('main, #main-content')
        .getByRole('link', { name: /^Hook pack 12 short/ })
        .click();
      await expect(page).toHaveURL(/\/hook-packs\/new$/);
      await expect(page.getByRole('heading', { name: 'Upload Product', exact: true })).toBeVisible();

      await page.goto('/avatars');
      await expect(page.getByRole('heading', { name: 'All Avatars' })).toBeVisible();
      await expect(page.getByTestId('avatar-card').first()).toBeVisible();
      await expect(page.getByRole('button', { name: /New Avatars/ })).toHaveCount(0);
      await page.getByTestId('avatar-card').first().click({ button: 'right' });
      await expect(page.getByRole('menuitem', { name: /Delete/ })).toHaveCount(0);
    });

    test('Ctrl+B toggles the sidebar; deleting a job polls no more; toasts stay clear of the page actions', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const problems = watchProblems(page);
      await signIn(page, uniqueEmail(`ux-job-${size}`), { at: '/projects' });
      const sidebar = page.locator('[data-sidebar="sidebar"]');
      if (phone) {
        await expect(sidebar).toHaveCount(0);
        await page.keyboard.press('Control+b');
        await expect(sidebar.first()).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(sidebar).toHaveCount(0);
      } else {
        await expect(sidebar.first()).toBeVisible();
        await page.keyboard.press('Control+b');
        await expect(sidebar.first()).toBeHidden();
        await page.keyboard.press('Control+b');
        await expect(sidebar.first()).toBeVisible();
      }

      await createProjectInUi(page, projectName('Delete job'));
      await addCharacters(page, 'a cheerful man in a sunny garden', 1);
      await page.getByLabel('Script').fill(adScript('Delete job serum'));
      // Every ask for one job, with when it left the page, from the job page's first load on.
      const asks: { path: string; at: number }[] = [];
      page.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (r.method() === 'GET' && /^\/api\/jobs\/\d+$/.test(pathname)) asks.push({ path: pathname, at: Date.now() });
      });
      await page.getByRole('button', { name: /^Generate · 1\.00 credit$/ }).click();
      await expect(page).toHaveURL(/\/jobs\/\d+$/);
      const jobId = /\/jobs\/(\d+)$/.exec(page.url())![1]!;
      const jobCalls = () => asks.filter((a) => a.path === `/api/jobs/${jobId}`);

      // The success toast sits clear of the page's own buttons and, on a phone, of the top bar with its menu.
      // A hovered toast stays (its timer pauses), so a slow page cannot let it expire before it is measured.
      const toast = page.locator('[data-sonner-toast]').first();
      await expect(toast).toBeVisible();
      await toast.hover();
      const deleteButton = page.getByRole('button', { name: 'Delete Job' });
      await expect(deleteButton).toBeVisible();
      const boxOf = async (l: Locator) => {
        const box = await l.boundingBox();
        expect(box, 'a box on screen').toBeTruthy();
        return box!;
      };
      const overlaps = (a: Box, b: Box) =>
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      const t = await boxOf(toast);
      expect(overlaps(t, await boxOf(deleteButton))).toBe(false);
      expect(overlaps(t, await boxOf(page.getByRole('heading', { level: 1 }).first()))).toBe(false);
      if (phone) {
        const topBar = page.locator('header').filter({ has: page.getByRole('button', { name: /toggle sidebar/i }) });
        expect(overlaps(t, await boxOf(topBar))).toBe(false);
      }

      await deleteButton.click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: /Delete/ })
        .click();
      await expect(page).toHaveURL(/\/jobs$/);
      const seenAfterDelete = jobCalls().length;
      expect(seenAfterDelete, 'the job page asked for its job').toBeGreaterThan(0);
      // A poll left running would ask again within one interval of its last ask: nothing may ask for the deleted job
      // until that interval (and a margin for timers and the network) is over.
      const lastAsk = jobCalls().at(-1)!.at;
      await page.waitForTimeout(Math.max(0, lastAsk + TIMINGS.jobPollMs + 500 - Date.now()));
      expect(jobCalls().length).toBe(seenAfterDelete);
      expect(problems.filter((p) => p.includes('404'))).toEqual([]);
    });

    test('the editor keeps its characters and needs one; a job names its actor, time left and download', async ({
      page,
    }) => {
      test.setTimeout(240_000);
      await signIn(page, uniqueEmail(`ux-editor-${size}`));
      const name = projectName('Named download');
      await createProjectInUi(page, name);
      await page.getByLabel('Script').fill(adScript('Named serum'));
      const generate = page.getByRole('button', { name: /^Generate( · .*)?$/ });
      await expect(generate).toBeDisabled();
      await expect(page.getByText(VALIDATION.selectOneActor)).toBeVisible();

      // The description ranks the picker (decision 142): for a young woman the first tile is a woman.
      const [actor] = await addCharacters(page, 'young woman in her 20s with long brown hair', 1, {
        screenshot: path.join(SHOTS, `character-picker-${size}.png`),
      });
      expect(ACTORS.find((a) => a.name === actor)?.gender).toBe('female');
      await expect(generate).toBeEnabled();
      // Saved at once: still there after a reload.
      await page.reload();
      await expect(page.getByRole('img', { name: actor })).toBeVisible();
      await expect(page.getByText(VALIDATION.selectOneActor)).toHaveCount(0);

      await page.getByRole('button', { name: /^Generate( · .*)?$/ }).click();
      await expect(page).toHaveURL(/\/jobs\/\d+$/);
      await expect(page.getByText('Actor', { exact: true })).toBeVisible();
      await expect(page.getByTestId('job-time-left').or(page.getByText('Video ready'))).toBeVisible();
      const download = page.getByRole('link', { name: 'Download video' });
      await expect(download).toBeVisible({ timeout: 180_000 });
      const href = (await download.getAttribute('href')) ?? '';
      expect(href).toMatch(/\?download=named-download-[a-z0-9-]+\.mp4$/);
      const res = await page.request.get(href);
      expect(res.headers()['content-disposition']).toMatch(/^attachment; filename="named-download-[a-z0-9-]+\.mp4"$/);
      // Logs: one line per stage with its duration.
      const logs = await page.getByTestId('job-logs').innerText();
      expect(logs.split('\n').filter((l) => l.startsWith('Rendering the video'))).toHaveLength(1);

      await page.goto('/jobs');
      const card = page.getByTestId('job-card').first();
      await expect(card.getByTestId('job-card-who')).toBeVisible();
    });

    test('/generate fetches pasted image addresses through the server and says why it refuses one', async ({
      page,
    }) => {
      const problems = watchProblems(page);
      await signIn(page, uniqueEmail(`ux-generate-${size}`), { at: '/generate' });
      // An inside address (the metadata service) is refused by the server's SSRF guard, with its reason.
      await page.getByLabel('Product image URL').fill('http://169.254.169.254/latest/meta-data/iam');
      await expect(page.getByRole('alert').filter({ hasText: /address/i })).toBeVisible();
      await expect(page.getByLabel('Product image URL')).toHaveAttribute('aria-invalid', 'true');
      // An image of our own origin loads as it is.
      await page.getByLabel('Character image URL').fill('/api/static/catalogue/actor-1.png');
      await expect(page.getByText('Could not load this image.')).toHaveCount(0);
      await expect(page.getByRole('alert')).toHaveCount(1);
      // The refusal is an answer, not a page error; a CSP violation would be one.
      expect(problems.filter((p) => !p.includes('422'))).toEqual([]);
    });

    test('the landing page quotes only true figures, and the FAQ the measured render time', async ({ page }) => {
      // No page errors: a first render that disagreed with the served markup would be one (a hydration mismatch).
      const problems = watchProblems(page);
      await page.setViewportSize(viewport);
      await page.goto('/landing');
      for (const invented of ['500+', '10M+', '100+', '85%', 'Loved by growth teams'])
        await expect(page.getByText(invented)).toHaveCount(0);
      await expect(page.getByText('AI actors in the library')).toBeVisible();
      await expect(page.getByText('videos per hook pack')).toBeVisible();
      await page.getByRole('button', { name: 'How long does it take to get my videos?' }).click();
      await expect(page.getByText(/2 to 4 hours/)).toHaveCount(0);
      await expect(page.getByText(/measured|took about/).first()).toBeVisible();
      await expect(page.getByRole('link', { name: 'Start Free Trial' }).first()).toBeVisible();
      // The demo section shows real engine videos, not placeholder slides behind a promised demo.
      await expect(page.getByText(/minute demo/)).toHaveCount(0);
      await page.getByRole('button', { name: 'Watch Demo' }).first().click();
      const sample = page
        .getByRole('region', { name: /Sample videos/ })
        .locator('video')
        .first();
      await expect(sample).toBeInViewport();
      await sample.evaluate(async (v: HTMLVideoElement) => {
        v.muted = true;
        await v.play();
      });
      await expect.poll(() => sample.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.5);
      const played = await sample.evaluate((v: HTMLVideoElement) => ({
        width: v.videoWidth,
        height: v.videoHeight,
        duration: v.duration,
      }));
      expect(played.height / played.width).toBeCloseTo(16 / 9, 1);
      expect(played.duration).toBeGreaterThan(5);
      await page.screenshot({ path: `../.tmp/landing-samples-${size}.png` });
      expect(problems).toEqual([]);
    });

    test('/settings fits the screen: every field shows its whole placeholder, no row runs off the side', async ({
      page,
    }) => {
      await signIn(page, uniqueEmail(`ux-settings-${size}`), { at: '/settings' });
      await page.getByLabel('Key name').fill('Zapier');
      await page.getByRole('button', { name: 'Create Key' }).click();
      await expect(page.getByText('New key "Zapier"')).toBeVisible();
      // The one local origin the test server may deliver to (every real address must resolve, offline here).
      await page.getByLabel('Endpoint URL').fill(`${WEBHOOK_RECEIVER_ORIGIN}/hookreel`);
      await page.getByRole('button', { name: 'Add Endpoint' }).click();
      await expect(page.getByRole('list', { name: 'Webhook endpoints' }).getByRole('listitem')).toHaveCount(1);
      await page.getByLabel('Key name').fill('');
      await page.getByLabel('Endpoint URL').fill('');
      const fields = page.locator('input[placeholder]');
      expect(await fields.count()).toBeGreaterThanOrEqual(2);
      // The placeholder's width in the field's own font, against the room inside the field's padding.
      const cut = await fields.evaluateAll((inputs) =>
        (inputs as HTMLInputElement[]).flatMap((input) => {
          const style = getComputedStyle(input);
          const ctx = document.createElement('canvas').getContext('2d')!;
          ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return ctx.measureText(input.placeholder).width > room ? [input.placeholder] : [];
        }),
      );
      expect(cut).toEqual([]);
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(pageWidth).toBeLessThanOrEqual(viewport.width);
      for (const button of [/^Copy$/, /^Done$/, /^Send test$/, /^Delete http/]) {
        const box = await page.getByRole('button', { name: button }).first().boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      }
      await page.screenshot({ path: `../.tmp/settings-${size}.png`, fullPage: true });
    });

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });

      test("the landing page's first paint already shows this installation's figures", async ({ page, request }) => {
        const stats = PublicStats.parse(await (await request.get('/api/stats')).json());
        await page.goto('/landing');
        const figures = page.getByRole('region', { name: 'Hookreel in numbers' });
        for (const f of publicFigures(stats)) {
          await expect(figures.locator(`[data-figure="${f.key}"]`)).toHaveText(f.value);
          await expect(figures.locator(`[data-figure-label="${f.key}"]`)).toHaveText(f.label);
        }
        await expect(figures.locator('[data-figure="actors"]')).toHaveText(/^\d+$/);
        if (stats.seconds_per_video !== null) await expect(figures.getByText(FIGURE_UNKNOWN)).toHaveCount(0);
        // The sample videos play with the browser's own controls, before any script has run.
        const samples = page.getByRole('region', { name: /Sample videos/ }).locator('video[controls]');
        expect(await samples.count()).toBeGreaterThanOrEqual(3);
        for (const src of await samples.evaluateAll((vs) => vs.map((v) => (v as HTMLVideoElement).src)))
          expect((await request.get(src)).headers()['content-type']).toContain('video/mp4');
      });
    });
  });
}
