import { VALIDATION } from '@hookreel/contracts';
import { expect, test } from '@playwright/test';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { addCharacters, adScript, createProjectInUi, expectVideoPlays, projectName } from '../support/factories.ts';

test.describe('jobs', () => {
  test('the Notify Me banner shows for a new user and goes away once clicked', async ({ page }) => {
    await signIn(page, uniqueEmail('notify'), { at: '/jobs' });
    await expect(page.getByRole('heading', { name: 'Generated Videos' })).toBeVisible();
    await expect(page.getByText('No jobs found. Queue a job from a project page.')).toBeVisible();
    const notify = page.getByRole('button', { name: 'Notify Me' });
    await expect(notify).toBeVisible();
    await notify.click();
    await expect(page.getByText('Notifications enabled!')).toBeVisible();
    await expect(notify).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Generated Videos' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Notify Me' })).toBeHidden();
  });

  test('queue a job, watch progress move, play the finished video, delete a job', async ({ page }) => {
    await signIn(page, uniqueEmail('jobs'));
    const name = projectName('Jobs spec');
    const projectId = await createProjectInUi(page, name);
    expect(projectId).toBeGreaterThan(0);

    // Characters: description → picker → 'Add 1 Characters'.
    const [actor] = await addCharacters(page, 'a friendly woman in a bright kitchen', 1);
    await expect(page.getByRole('img', { name: actor })).toBeVisible();

    // Without a script there is nothing to say: Generate waits for one.
    const generate = page.getByRole('button', { name: /^Generate · 1\.00 credit$/ });
    await expect(generate).toBeDisabled();
    await expect(page.getByText(VALIDATION.scriptRequired)).toBeVisible();

    // Type the script and press Generate straight away: nothing typed may be lost to the auto-save debounce.
    const script = adScript('Jobs spec serum');
    await page.getByLabel('Script').fill(script);
    await generate.click();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    const jobId = Number(/\/jobs\/(\d+)$/.exec(page.url())![1]);
    await expect(page.getByRole('heading', { name: 'Job Details' })).toBeVisible();
    await expect(page.getByText('Job Information')).toBeVisible();

    // Watch the job: progress values and statuses seen until it is done.
    const status = page.getByTestId('job-status');
    const bar = page.getByRole('progressbar', { name: 'Job progress' });
    const seen = new Set<string>();
    const percents = new Set<string>();
    // Sampled every 150 ms while the page polls the job, until the page shows it finished.
    await expect
      .poll(
        async () => {
          const s = (await status.getAttribute('data-status').catch(() => null)) ?? '';
          if (s) seen.add(s);
          if (s === 'completed' || s === 'failed') return s;
          const v = await bar.getAttribute('aria-valuenow', { timeout: 200 }).catch(() => null);
          if (v !== null) percents.add(v);
          return `${s} (saw ${[...seen].join(', ')})`;
        },
        { timeout: 90_000, intervals: [150], message: 'the job finishes' },
      )
      .toMatch(/^(completed|failed)$/);
    expect(
      seen.has('failed'),
      `the job failed: ${await page
        .getByTestId('job-logs')
        .innerText()
        .catch(() => '')}`,
    ).toBe(false);
    expect(seen.has('completed')).toBe(true);
    // Progress moved: either the bar showed two values, or the status went from queued/processing to done.
    expect(percents.size >= 2 || seen.has('queued') || seen.has('in_progress')).toBe(true);
    await expect(status).toHaveText('Done');
    await expect(page.getByText('100%')).toBeVisible();

    const video = page.locator('video');
    const played = await expectVideoPlays(video);
    expect(played.poster).toMatch(/\/static\//);

    const logs = page.getByTestId('job-logs');
    await expect(logs).toBeVisible();
    const lines = (await logs.innerText()).split('\n').filter((l) => l.trim());
    expect(lines.length).toBeGreaterThanOrEqual(2);
    await expect(logs).toContainText('Queued');

    // The job grid shows the card; delete it from the card menu.
    await page.getByRole('link', { name: 'Back to Jobs' }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    const card = page.getByTestId('job-card').filter({ hasText: name });
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('job-status')).toHaveText('Done');
    await expect(card.getByRole('img', { name: `${name} poster` })).toBeVisible();
    await card.getByRole('button', { name: `Actions for job ${jobId}` }).click();
    await page.getByRole('menuitem', { name: 'Delete Job' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /delete/i })
      .click();
    await expect(page.getByText('Job deleted successfully.')).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByText('No jobs found. Queue a job from a project page.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('No jobs found. Queue a job from a project page.')).toBeVisible();
    await page.goto(`/jobs/${jobId}`);
    await expect(page.getByText("Job not found or you don't have permission to view it.")).toBeVisible();

    // Back in the project, the cast and the script that were rendered are still there.
    await page.goto(`/projects/${projectId}`);
    await expect(page.getByLabel('Script')).toHaveValue(script);
    await expect(page.getByTestId('editor-character')).toHaveCount(1);
    await expect(page.getByRole('img', { name: actor })).toBeVisible();
  });
});
