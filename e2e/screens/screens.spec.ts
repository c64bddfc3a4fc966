import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signInWithGoogle, uniqueEmail } from '../support/auth.ts';
import { addCreator } from '../support/creators.ts';
import { addCharacters, adScript, createProjectInUi, projectName } from '../support/factories.ts';
import { approveCharacters, describePack, productPhotoFile, uploadPackProduct } from '../support/hook-packs.ts';

/**
 * Regenerates docs/screens/*.png, every screen in the sidebar and the ones issue #13 changed, at 1440x900 and
 * 390x844: `npm run screens`.
 * Each shot asserts what it shows first, so a broken screen fails instead of being photographed.
 */
const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screens');
const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function shoot(page: Page, file: string, fullPage = false) {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(OUT, `${file}.png`), fullPage });
}

for (const { name: size, viewport } of SIZES) {
  test(`screens changed by issue 13 (${size})`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize(viewport);
    await page.goto('/landing');
    await expect(page.getByText('AI actors in the library')).toBeVisible();
    await shoot(page, `landing-${size}`, true);
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
    await shoot(page, `login-${size}`);
    await page.goto('/register');
    await expect(page.getByText('Create an account')).toBeVisible();
    await shoot(page, `register-${size}`);

    await page.setViewportSize(SIZES[0].viewport);
    await signInWithGoogle(page, uniqueEmail(`screens-${size}`));
    await page.setViewportSize(viewport);

    await page.goto('/projects');
    await expect(page.getByText('Your Projects')).toBeVisible();
    await shoot(page, `projects-empty-${size}`);
    if (size === 'phone') {
      await page.getByRole('button', { name: /toggle sidebar/i }).click();
      await expect(page.locator('[data-sidebar="sidebar"]').getByRole('link', { name: 'Hook packs' })).toBeVisible();
      await shoot(page, `sidebar-drawer-${size}`);
      await page.keyboard.press('Escape');
    }

    await page.goto('/new-video');
    await expect(page.getByRole('heading', { name: 'Hook pack' })).toBeVisible();
    await shoot(page, `new-video-${size}`);

    await page.goto('/hook-packs/new');
    await page.getByLabel('Product image').setInputFiles(await productPhotoFile('#c2410c', 'glow-serum.png'));
    await expect(page.getByLabel('Pack name')).toHaveValue(/Glow Serum — /);
    await shoot(page, `hook-pack-step1-name-${size}`);

    await page.goto('/hook-packs');
    await expect(page.getByTestId('hook-pack-card').first()).toBeVisible();
    await shoot(page, `hook-pack-list-${size}`);

    await page.goto('/generate');
    await page.getByLabel('Character image URL').fill('/api/static/catalogue/actor-1.png');
    await page.getByLabel('Product image URL').fill('http://169.254.169.254/latest/meta-data/iam');
    await expect(page.getByRole('alert').filter({ hasText: /address/i })).toBeVisible();
    await shoot(page, `generate-refused-${size}`);

    await page.goto('/settings');
    await expect(page.getByText('No API keys yet.')).toBeVisible();
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
    await expect(page.getByText('Brand kit', { exact: true }).first()).toBeVisible();
    await shoot(page, `settings-${size}`, true);

    await page.goto('/batches');
    await expect(page.getByRole('heading', { name: 'Batch from CSV' })).toBeVisible();
    await shoot(page, `batch-from-csv-${size}`, true);

    await page.goto('/credits');
    await expect(page.getByRole('button', { name: /^Buy 5 credits/ })).toBeVisible();
    await shoot(page, `credits-${size}`, true);

    await page.goto('/credits/history');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, `credit-history-${size}`, true);

    await page.goto('/avatars');
    await expect(page.getByTestId('avatar-card').first()).toBeVisible();
    await shoot(page, `avatars-member-${size}`);

    await createProjectInUi(page, projectName('Screens'));
    await page.getByLabel('Script').fill(adScript('Screens serum'));
    await shoot(page, `project-editor-needs-actor-${size}`);
    await addCharacters(page, 'a calm woman in a bright bathroom', 1);
    await expect(page.getByRole('group', { name: 'Caption style' })).toBeVisible();
    await expect(page.getByLabel('Voice speed')).toBeVisible();
    await shoot(page, `project-editor-${size}`, true);
    await page.getByRole('button', { name: /^Generate( · .*)?$/ }).click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByText('Actor', { exact: true })).toBeVisible();
    await shoot(page, `job-details-running-${size}`);
    await expect(page.getByRole('link', { name: 'Download video' })).toBeVisible({ timeout: 180_000 });
    await expect(page.getByTestId('quality-report')).toBeVisible();
    await expect(page.getByRole('button', { name: /Make realistic/ })).toBeVisible();
    // Wait for the first frame, or Chromium's loading spinner is photographed over the actor's face.
    const video = page.getByTestId('job-video').locator('video');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 3 && v.networkState === v.NETWORK_IDLE))
      .toBe(true);
    // Chromium hides that spinner only at the end of its spin cycle, so give it a moment after the frame arrives.
    await page.waitForTimeout(2_000);
    await shoot(page, `job-details-done-${size}`, true);
    await page.goto('/jobs');
    await expect(page.getByTestId('job-card-who').first()).toBeVisible();
    await shoot(page, `jobs-${size}`);
    await page.goto('/projects');
    await expect(page.getByText('Your Projects')).toBeVisible();
    await shoot(page, `projects-${size}`);
  });
}

test('hook pack Generate step: hook angles, caption style, matrix mode (desktop and phone)', async ({ page }) => {
  test.setTimeout(420_000);
  const TYPE = 'Young woman runner in a park';
  await page.setViewportSize(SIZES[0].viewport);
  await signInWithGoogle(page, uniqueEmail('screens-pack'));
  await page.goto('/hook-packs/new');
  await uploadPackProduct(page, '#b23a7a', { transparent: false });
  await describePack(page, TYPE, 'Glow all day');
  await approveCharacters(page, TYPE, 2);
  await expect(page.getByRole('group', { name: 'Caption style' })).toBeVisible();
  for (const { name: size, viewport } of SIZES) {
    await page.setViewportSize(viewport);
    await shoot(page, `hook-pack-generate-${size}`, true);
  }
  await page.getByRole('button', { name: 'Matrix', exact: true }).click();
  await page.getByRole('button', { name: 'Add hook' }).click();
  await page.getByLabel('Hook 2', { exact: true }).fill('My skin finally looks rested');
  await expect(page.getByTestId('matrix-cell')).toHaveCount(4);
  for (const { name: size, viewport } of SIZES) {
    await page.setViewportSize(viewport);
    await shoot(page, `hook-pack-matrix-${size}`, true);
  }
});

test('your creators: the talking-preview card, and a creator beside the drawn characters in a hook pack (desktop and phone)', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await page.setViewportSize(SIZES[0].viewport);
  await signInWithGoogle(page, uniqueEmail('screens-creators'));
  await page.goto('/creators');
  await addCreator(page, 'Eileen');
  await expect(page.getByTestId('actor-talking-preview')).toBeVisible({ timeout: 180_000 });
  for (const { name: size, viewport } of SIZES) {
    await page.setViewportSize(viewport);
    await shoot(page, `creators-${size}`);
  }

  const TYPE = 'Young woman runner in a park';
  await page.setViewportSize(SIZES[0].viewport);
  await page.goto('/hook-packs/new');
  await uploadPackProduct(page, '#3a6ab2');
  await describePack(page, TYPE, 'Glow all day');
  await expect(page.getByRole('button', { name: `${TYPE} — character 4` })).toBeEnabled({ timeout: 60_000 });
  const creator = page.getByRole('button', { name: 'Eileen — your creator' });
  await creator.click();
  await expect(creator).toHaveAttribute('aria-pressed', 'true');
  for (const { name: size, viewport } of SIZES) {
    await page.setViewportSize(viewport);
    await shoot(page, `hook-pack-characters-${size}`, true);
  }
});

test('photo options: a catalogue actor made photoreal, priced first (desktop and phone)', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(SIZES[0].viewport);
  await signInWithGoogle(page, uniqueEmail('screens-photoreal'));
  await createProjectInUi(page, projectName('Photoreal'));
  const [actor] = await addCharacters(page, 'a friendly woman in a bright kitchen', 1);
  await page.getByRole('button', { name: 'Make photoreal…' }).click();
  const dialog = page.getByRole('dialog', { name: `${actor}: photo options` });
  const make = dialog.getByRole('button', { name: /^Make photoreal · 0\.10 credits$/ });
  await expect(make).toBeEnabled();
  for (const { name: size, viewport } of SIZES) {
    await page.setViewportSize(viewport);
    await shoot(page, `photo-options-price-${size}`);
  }
  await make.click();
  await expect(dialog.getByTestId('look-photo')).toHaveText('Photo', { timeout: 90_000 });
  await expect(dialog.getByRole('img', { name: `${actor} as a photo` })).toHaveJSProperty('complete', true);
  for (const { name: size, viewport } of SIZES) {
    await page.setViewportSize(viewport);
    await shoot(page, `photo-options-made-${size}`);
  }
});
