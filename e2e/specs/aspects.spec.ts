import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectVideoPlays, projectWithOneActor } from '../support/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/screens/aspects');

/** Width and height of a video file's picture, as ffprobe reads it. */
const probeSize = (file: string): string =>
  execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,sample_aspect_ratio'],
    ...['-of', 'csv=p=0', file],
  ])
    .toString()
    .trim();

test.describe('every placement', () => {
  test('tick 4:5 and 1:1, generate once, watch and download each shape at its size', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1000 });
    const name = await projectWithOneActor(page, 'aspects', 'Every placement');

    const generate = page.getByRole('button', { name: /^Generate · / });
    const priceBefore = await generate.textContent();
    // 9:16 is always made; 4:5 and 1:1 are ticked here and saved at once.
    const picker = page.getByRole('group', { name: 'Frame shapes' });
    await expect(picker.getByRole('checkbox')).toHaveCount(3);
    await expect(picker.getByTestId('aspect-9:16')).toBeChecked();
    await expect(picker.getByTestId('aspect-9:16')).toBeDisabled();
    for (const shape of ['4:5', '1:1']) {
      const saved = page.waitForResponse(
        (r) => r.request().method() === 'PUT' && /\/api\/projects\/\d+$/.test(r.url()),
      );
      await picker.getByTestId(`aspect-${shape}`).check();
      expect((await saved).status()).toBe(200);
    }
    await picker.screenshot({ path: path.join(SHOTS, 'aspect-picker.png') });
    await page.reload();
    await expect(page.getByTestId('aspect-4:5')).toBeChecked();
    await expect(page.getByTestId('aspect-1:1')).toBeChecked();

    // One Generate, one price: the extra shapes cost nothing more.
    await page.getByLabel('Script').fill('This serum fixed my dull skin. Try it today!');
    await expect(generate).toHaveText(priceBefore!);
    await generate.click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 180_000 });

    const sizes: Record<string, string> = { '9:16': '720,1280,1:1', '4:5': '864,1080,1:1', '1:1': '1080,1080,1:1' };
    for (const shape of ['9:16', '4:5', '1:1']) {
      await page.getByTestId(`show-${shape}`).click();
      const player = page.getByTestId('job-video-player');
      await expect(player).toHaveAttribute('data-aspect', shape);
      await expectVideoPlays(player);
      // The quality report beside it is this shape's own: measured at its size, every hard rule green.
      const size = page.getByTestId('quality-line').filter({ hasText: 'Frame size' });
      await expect(size).toContainText(sizes[shape]!.split(',').slice(0, 2).join('x'));
      await expect(size).toHaveAttribute('data-level', 'pass');
      const lines = page.getByTestId('quality-line');
      expect(await lines.evaluateAll((els) => els.map((e) => e.getAttribute('data-level')))).not.toContain('fail');
      const tag = shape.replace(':', 'x');
      await page.screenshot({ path: path.join(SHOTS, `job-details-${tag}.png`), fullPage: true });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId(`download-${shape}`).click(),
      ]);
      const fileName = download.suggestedFilename();
      expect(fileName).toMatch(shape === '9:16' ? /^every-placement-[a-z0-9-]+\.mp4$/ : new RegExp(`-${tag}\\.mp4$`));
      if (shape === '9:16') expect(fileName).not.toMatch(/-(4x5|1x1)\.mp4$/);
      const file = testInfo.outputPath(fileName);
      await download.saveAs(file);
      expect(probeSize(file)).toBe(sizes[shape]);
      // A frame of each shape, to look at: the hook sticker's beat and the CTA close-up.
      for (const at of ['0.8', '3.4']) {
        execFileSync('ffmpeg', [
          ...['-v', 'error', '-y', '-ss', at, '-i', file, '-frames:v', '1'],
          path.join(SHOTS, `frame-${tag}-${at}s.png`),
        ]);
      }
    }

    // The job card says which shapes the video comes in.
    await page.goto('/jobs');
    const card = page.getByTestId('job-card').filter({ hasText: name });
    await expect(card.getByTestId('job-aspects')).toHaveAccessibleName('Frame shapes: 9:16, 4:5, 1:1');
    await card.screenshot({ path: path.join(SHOTS, 'job-card.png') });
  });
});
