import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signInWithGoogle, uniqueEmail } from '../support/auth.ts';
import { addCharacters, adScript, createProjectInUi, projectName } from '../support/factories.ts';
import { productPhotoFile } from '../support/hook-packs.ts';

/**
 * Regenerates docs/screens/*.png, the screens issue #13 changed, at 1440x900 and 390x844: `npm run screens`.
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

    await page.setViewportSize(SIZES[0].viewport);
    await signInWithGoogle(page, uniqueEmail(`screens-${size}`));
    await page.setViewportSize(viewport);

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

    await page.goto('/avatars');
    await expect(page.getByTestId('avatar-card').first()).toBeVisible();
    await shoot(page, `avatars-member-${size}`);

    await createProjectInUi(page, projectName('Screens'));
    await page.getByLabel('Script').fill(adScript('Screens serum'));
    await shoot(page, `project-editor-needs-actor-${size}`);
    await addCharacters(page, 'a calm woman in a bright bathroom', 1);
    await page.getByRole('button', { name: /^Generate( · .*)?$/ }).click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByText('Actor', { exact: true })).toBeVisible();
    await shoot(page, `job-details-running-${size}`);
    await expect(page.getByRole('link', { name: 'Download video' })).toBeVisible({ timeout: 180_000 });
    await shoot(page, `job-details-done-${size}`);
    await page.goto('/jobs');
    await expect(page.getByTestId('job-card-who').first()).toBeVisible();
    await shoot(page, `jobs-${size}`);
  });
}
