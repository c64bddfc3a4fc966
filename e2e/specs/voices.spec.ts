import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adScript, expectVideoPlays, projectWithOneActor } from '../support/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/screens/voices');
const ALAN = 'Alan (Scottish English, flite)';

test.describe('choosing a voice', () => {
  test('hear a voice’s sample, pick it, and the video is spoken by it; another language starts from Automatic', async ({
    page,
  }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1100 });
    await projectWithOneActor(page, 'voices', 'Voices');
    const scriptSaved = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && /\/api\/projects\/\d+$/.test(r.url()),
    );
    await page.getByLabel('Script').fill(adScript());
    expect((await scriptSaved).ok()).toBe(true);

    const speaker = page.getByRole('group', { name: 'Speaker' });
    await expect(speaker.getByRole('radio', { name: /^Automatic/ })).toBeChecked();
    await expect(speaker.getByRole('radio', { name: /Ryan.*Recommended/ })).toBeVisible();

    // The sample is fetched from the server and plays to its end, before anything is spent.
    const alanRow = speaker.getByTestId('voice-option').filter({ hasText: 'Alan' });
    // The button's name says what a press does next: play, or stop the sample playing.
    const play = alanRow.getByRole('button');
    await expect(play).toHaveAccessibleName(`Play a sample of ${ALAN}`);
    const sample = page.waitForResponse((r) => r.url().endsWith('/api/voices/flite%3Aawb/sample'));
    await play.click();
    const res = await sample;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('audio/wav');
    expect((await res.body()).length).toBeGreaterThan(16_000);
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    await expect(play).toHaveAccessibleName('Stop the sample of Alan');
    await expect(play).toHaveAttribute('aria-pressed', 'false', { timeout: 20_000 });
    await speaker.screenshot({ path: path.join(SHOTS, 'speaker.png') });

    // Picking saves at once, and a reload shows it.
    const picked = page.waitForResponse(
      (r) =>
        r.request().method() === 'PUT' &&
        (r.request().postDataJSON() as { voice_id?: string } | null)?.voice_id === 'flite:awb',
    );
    await alanRow.locator('label').click();
    expect((await picked).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('group', { name: 'Speaker' }).getByRole('radio', { name: /^Alan/ })).toBeChecked();

    await page.getByRole('button', { name: /^Generate · / }).click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 110_000 });
    await expectVideoPlays(page.locator('video'));
    await expect(page.getByTestId('job-logs')).toContainText(`Voice: ${ALAN}`);

    // Spanish has its own voices: the English pick gives way to Automatic, on screen and on the server.
    await page.goBack();
    await page.getByRole('combobox', { name: 'Language' }).click();
    const saved = page.waitForResponse(
      (r) =>
        r.request().method() === 'PUT' &&
        (r.request().postDataJSON() as { language?: string } | null)?.language === 'spanish',
    );
    await page.getByRole('option', { name: 'Spanish' }).click();
    const spanish = page.getByRole('group', { name: 'Speaker' });
    await expect(spanish.getByRole('radio', { name: /^Automatic/ })).toBeChecked();
    await expect(spanish.getByRole('radio', { name: /Spanish female/ }).first()).toBeVisible();
    await expect(spanish.getByRole('radio', { name: /^Alan/ })).toHaveCount(0);
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('group', { name: 'Speaker' }).getByRole('radio', { name: /^Automatic/ })).toBeChecked();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('group', { name: 'Speaker' }).scrollIntoViewIfNeeded();
    await page.getByRole('group', { name: 'Speaker' }).screenshot({ path: path.join(SHOTS, 'speaker-phone.png') });
  });
});
