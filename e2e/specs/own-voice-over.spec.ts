import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectVideoPlays, projectWithOneActor } from '../support/factories.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/screens/own-voice-over');
const SCRIPT = 'I tried this serum for seven days. My skin has never looked better, grab yours today!';

const durationOf = (file: string): number =>
  Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
      encoding: 'utf8',
    }).trim(),
  );

/**
 * A real recording of someone reading the script, as a user would upload it: a male diphone voice (not the voice
 * the aligner speaks with), slowed to 0.85x, after a second of silence, as an M4A.
 */
function recordScript(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-own-voice-'));
  const text = path.join(dir, 'script.txt');
  writeFileSync(text, SCRIPT);
  const wav = path.join(dir, 'take.wav');
  execFileSync('text2wave', ['-eval', '(voice_kal_diphone)', '-o', wav, text]);
  const m4a = path.join(dir, 'my-voice.m4a');
  execFileSync('ffmpeg', [
    ...['-y', '-v', 'error', '-i', wav, '-af', 'atempo=0.85,adelay=1000,apad=pad_dur=0.5'],
    ...['-c:a', 'aac', '-b:a', '128k', m4a],
  ]);
  return m4a;
}

test.describe('own voice-over', () => {
  test('upload my recording, hear it, generate: the video follows it; switch back to the generated voice', async ({
    page,
  }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1100 });
    const recording = recordScript();
    const seconds = durationOf(recording);
    await projectWithOneActor(page, 'own-voice', 'Own voice');
    // The script's auto-save: a debounced PUT of the project with the new script, awaited before the reload below.
    const scriptSaved = page.waitForResponse(
      (r) =>
        r.request().method() === 'PUT' &&
        /\/api\/projects\/\d+$/.test(r.url()) &&
        (r.request().postDataJSON() as { script?: string } | null)?.script === SCRIPT,
    );
    await page.getByLabel('Script').fill(SCRIPT);

    const voice = page.getByRole('group', { name: 'Voice' });
    await expect(voice.getByRole('radio', { name: /Generated voice/ })).toBeChecked();
    await expect(page.getByRole('slider', { name: 'Voice speed' })).toBeVisible();
    await voice.getByText('My own recording').click();
    await expect(page.getByRole('slider', { name: 'Voice speed' })).toHaveCount(0);
    await expect(voice).toContainText('No recording yet');

    const uploaded = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/voice-over$/.test(r.url()));
    await voice.getByLabel('Upload recording').setInputFiles(recording);
    expect((await uploaded).status()).toBe(200);
    const player = voice.getByTestId('voice-over-player');
    await expect(player).toBeVisible();
    // The player really loads the stored recording, and its length is the one shown.
    await expect
      .poll(() => player.evaluate((el: HTMLAudioElement) => el.duration), { timeout: 15_000 })
      .toBeGreaterThan(seconds - 0.3);
    const shown = Math.floor(seconds);
    await expect(voice.getByTestId('voice-over-duration')).toHaveText(
      `Length ${Math.floor(shown / 60)}:${String(shown % 60).padStart(2, '0')}`,
    );
    await voice.screenshot({ path: path.join(SHOTS, 'voice-section.png') });

    // The choice is stored: a reload shows the recording as the voice.
    expect((await scriptSaved).ok()).toBe(true);
    await page.reload();
    await expect(page.getByRole('radio', { name: /My own recording/ })).toBeChecked();
    await expect(page.getByTestId('voice-over-player')).toBeVisible();

    await page.getByRole('button', { name: /^Generate · / }).click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'completed', { timeout: 110_000 });
    const played = await expectVideoPlays(page.locator('video'));
    // The video lasts as long as the recording (plus the short tail the engine leaves after the last word).
    expect(played.duration).toBeGreaterThan(seconds + 0.1);
    expect(played.duration).toBeLessThan(seconds + 0.9);
    await expect(page.getByTestId('job-logs')).toContainText('Voice-over: words aligned to the recording');
    const levels = await page
      .getByTestId('quality-report')
      .getByTestId('quality-line')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-level')));
    expect(levels.length).toBeGreaterThan(3);
    expect(levels).not.toContain('fail');

    // Frames of the finished video, to look at: captions on the recording's words, the mouth moving with it.
    const src = await page.locator('video').evaluate((el: HTMLVideoElement) => el.currentSrc);
    const mp4 = path.join(SHOTS, 'video.mp4');
    writeFileSync(mp4, await (await page.request.get(src)).body());
    expect(Math.abs(durationOf(mp4) - played.duration)).toBeLessThan(0.3);
    execFileSync('ffmpeg', [
      ...['-y', '-v', 'error', '-i', mp4, '-vf', `fps=6/${seconds.toFixed(2)},scale=240:-1,tile=6x1`],
      ...['-frames:v', '1', path.join(SHOTS, 'frames.png')],
    ]);
    await page.screenshot({ path: path.join(SHOTS, 'job.png') });

    // Back to the generated voice: the recording is kept; then removed for good.
    await page.goBack();
    await expect(page.getByRole('radio', { name: /My own recording/ })).toBeChecked();
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/projects\/\d+$/.test(r.url()));
    await page.getByRole('group', { name: 'Voice' }).getByText('Generated voice').click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByRole('slider', { name: 'Voice speed' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('radio', { name: /Generated voice/ })).toBeChecked();
    await page.getByRole('group', { name: 'Voice' }).getByText('My own recording').click();
    await expect(page.getByTestId('voice-over-player')).toBeVisible();
    await page.getByRole('button', { name: 'Remove recording' }).click();
    await expect(page.getByRole('radio', { name: /Generated voice/ })).toBeChecked();
    await page.reload();
    await expect(page.getByRole('radio', { name: /Generated voice/ })).toBeChecked();
  });
});
