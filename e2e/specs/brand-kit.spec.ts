import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { addCharacters, adScript, createProjectInUi, expectVideoPlays, projectName } from '../support/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/screens/brand-kit');

/** A logo on transparency: an orange disc and a white bar, as PNG. */
async function logoFile(): Promise<string> {
  const file = path.join(tmpdir(), `brand-logo-${Date.now()}.png`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300">
    <circle cx="150" cy="150" r="100" fill="#F77F00"/><rect x="280" y="110" width="260" height="80" fill="#ffffff"/></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
  return file;
}

test.describe('brand kit', () => {
  test('set the kit on /settings, a new project takes it, and its video ends on the logo outro', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1000 });
    await signIn(page, uniqueEmail('brand-kit'), { at: '/settings' });
    const card = page.getByTestId('brand-kit-card');
    await expect(card.getByRole('heading', { name: 'Brand kit' })).toBeVisible();

    // No logo yet: the outro cannot be switched on.
    await expect(card.getByRole('switch', { name: 'Outro card with the logo' })).toBeDisabled();
    // A JPEG is refused in the browser before it is sent.
    const jpeg = path.join(tmpdir(), `brand-logo-${Date.now()}.jpg`);
    writeFileSync(
      jpeg,
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f00' } })
        .jpeg()
        .toBuffer(),
    );
    await card.getByTestId('logo-input').setInputFiles(jpeg);
    await expect(page.getByText('The logo must be a PNG or WEBP image')).toBeVisible();

    const uploaded = page.waitForResponse(
      (r) => r.url().endsWith('/api/brand-kit/logo') && r.request().method() === 'PUT',
    );
    await card.getByTestId('logo-input').setInputFiles(await logoFile());
    expect((await uploaded).status()).toBe(200);
    await expect(card.getByRole('img', { name: 'Your logo' })).toBeVisible();

    await card.getByLabel('Brand colour', { exact: true }).fill('#E63946');
    await card.getByLabel('Second colour', { exact: true }).fill('#1D3557');
    await card.getByRole('radio', { name: /Lato/ }).check({ force: true });
    await card.getByRole('group', { name: 'Default caption style' }).getByText('Boxed lines').click();
    await card.getByLabel('Default call to action').fill('Shop the drop');
    await card.getByRole('switch', { name: 'Outro card with the logo' }).click();
    // The live preview follows the form: CTA in the brand colour, outro card in the second colour.
    await expect(card.getByTestId('preview-cta')).toHaveCSS('background-color', 'rgb(230, 57, 70)');
    await expect(card.getByTestId('preview-outro')).toHaveCSS('background-color', 'rgb(29, 53, 87)');
    await expect(card.getByTestId('preview-cta')).toHaveCSS('font-family', /hookreel-lato/);

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/brand-kit') && r.request().method() === 'PUT');
    await card.getByRole('button', { name: 'Save brand kit' }).click();
    expect((await saved).status()).toBe(200);
    await expect(card.getByRole('button', { name: 'Save brand kit' })).toBeDisabled();
    // The preview's font is the engine's own file, loaded from the server.
    await expect.poll(() => page.evaluate(() => document.fonts.check('700 16px "hookreel-lato"'))).toBe(true);
    await page.reload();
    await expect(card.getByLabel('Default call to action')).toHaveValue('Shop the drop');
    await expect(card.getByRole('switch', { name: 'Outro card with the logo' })).toBeChecked();
    await expect.poll(() => page.evaluate(() => document.fonts.check('700 16px "hookreel-lato"'))).toBe(true);
    await card.screenshot({ path: path.join(SHOTS, 'brand-kit-card.png') });

    // A new project starts with the kit.
    const name = projectName('Brand kit');
    await createProjectInUi(page, name);
    await expect(
      page.getByRole('group', { name: 'Caption style' }).getByRole('radio', { name: /Boxed lines/ }),
    ).toBeChecked();
    const look = page.getByTestId('brand-style-fields');
    await expect(look.getByLabel('Caption font')).toHaveValue('lato');
    await expect(look.getByLabel('Brand colour')).toHaveValue('#e63946');
    await expect(look.getByRole('switch', { name: 'Logo outro' })).toBeChecked();
    await look.screenshot({ path: path.join(SHOTS, 'project-brand-look.png') });

    await addCharacters(page, 'young woman in her 20s with long brown hair', 1);
    await page.getByLabel('Script').fill(adScript('Brand kit serum'));
    await page.getByRole('button', { name: /^Generate · / }).click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 110_000 });
    const { duration } = await expectVideoPlays(page.locator('video'));
    const report = page.getByTestId('quality-report');
    await expect(report.getByTestId('quality-line').filter({ hasText: 'Text inside the safe zone' })).toHaveAttribute(
      'data-level',
      'pass',
    );

    // The last frame is the outro: the second colour around the logo's orange disc and white bar.
    const src = await page.locator('video').evaluate((v: HTMLVideoElement) => v.currentSrc);
    const video = path.join(tmpdir(), `brand-kit-${Date.now()}.mp4`);
    writeFileSync(video, Buffer.from(await (await page.request.get(src)).body()));
    const frame = path.join(SHOTS, 'outro-frame.png');
    execFileSync('ffmpeg', [
      '-y',
      '-v',
      'error',
      '-ss',
      (duration - 0.2).toFixed(2),
      '-i',
      video,
      '-frames:v',
      '1',
      frame,
    ]);
    const { data, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 30);
    expect(near(at(20, 20), [0x1d, 0x35, 0x57])).toBe(true);
    let orange = 0;
    for (let i = 0; i < data.length; i += 3)
      if (near([data[i]!, data[i + 1]!, data[i + 2]!], [0xf7, 0x7f, 0x00])) orange++;
    expect(orange).toBeGreaterThan(2000);
  });
});
