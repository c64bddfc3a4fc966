import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type Job } from '@hookreel/contracts';
import { allowConsoleError } from '@/test/console';
import { jsonResponse } from '@/test/render';
import { makeCapabilities, makeJob, mockApi } from '../test/fixtures';
import { renderAt } from '../test/render-wizard';
import { HookPackJobsPage } from './hook-pack-jobs-page';

afterEach(() => vi.unstubAllGlobals());

const capabilities = (hookPacks: boolean) =>
  makeCapabilities({ videos: true, hookPacks }, 'Characters: set OPENAI_IMAGE_MODEL');

describe('HookPackJobsPage', () => {
  it('offers "Make realistic" with its price on a finished draft video and opens the new job', async () => {
    const { calls } = mockApi({
      'GET /jobs/hook-pack/5/jobs': () =>
        jsonResponse([
          makeJob({ id: 100, variant_index: 1, status: 'completed', progress: 100, realistic_upgrade_cost: 0.32 }),
          makeJob({ id: 101, variant_index: 2, status: 'completed', progress: 100, render_quality: 'realistic' }),
        ]),
      'GET /capabilities': () => jsonResponse(capabilities(true)),
      'POST /jobs/100/make-realistic': () => jsonResponse({ id: 140 }, 201),
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    const buttons = await screen.findAllByRole('button', { name: /Make realistic/ });
    // Only the draft is offered; the realistic video is not.
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveTextContent('0.32');
    await waitFor(() => expect(buttons[0]).toBeEnabled());
    await userEvent.click(buttons[0] as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/jobs/140'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/jobs/100/make-realistic']);
  });

  it('disables "Make realistic" with what a pack video still needs when the images provider is missing', async () => {
    mockApi({
      'GET /jobs/hook-pack/5/jobs': () =>
        jsonResponse([
          makeJob({ id: 100, variant_index: 1, status: 'completed', progress: 100, realistic_upgrade_cost: 0.32 }),
        ]),
      'GET /capabilities': () => jsonResponse(capabilities(false)),
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    expect(await screen.findByText(/Characters: set OPENAI_IMAGE_MODEL/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Make realistic/ })).toBeDisabled();
    // One finished video is named in the singular.
    expect(screen.getByText('The video is done')).toBeInTheDocument();
  });

  it('shows one live card per video, polls until done, then offers the download', async () => {
    let round = 0;
    const { calls } = mockApi({
      'GET /jobs/hook-pack/5/jobs': () => {
        round += 1;
        return jsonResponse(
          round === 1
            ? [
                makeJob({ id: 100, variant_index: 1, status: 'in_progress', progress: 40 }),
                makeJob({ id: 101, variant_index: 2 }),
              ]
            : [
                makeJob({ id: 100, variant_index: 1, status: 'completed', progress: 100, video_url: 'static/v/1.mp4' }),
                makeJob({ id: 101, variant_index: 2, status: 'completed', progress: 100, video_url: 'static/v/2.mp4' }),
              ],
        );
      },
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    expect(await screen.findByText('Video #1')).toBeInTheDocument();
    expect(screen.getByText('Video #2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Video Generation' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Download Videos/ })).toBeNull();

    const download = await screen.findByRole('link', { name: /Download Videos/ }, { timeout: 4000 });
    expect(download).toHaveAttribute('href', '/hook-packs/5/download');
    const polls = calls.length;
    await new Promise((r) => setTimeout(r, 1300));
    expect(calls.length).toBe(polls); // stopped polling once every job is done

    await userEvent.click(screen.getAllByTestId('pack-job-card')[1] as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/jobs/101'));
  }, 15_000);

  it('shows a "Make realistic" under way with its progress, keeps polling, then shows the realistic video', async () => {
    let round = 0;
    const draft = (upgrade: Job['realistic_upgrade']) =>
      makeJob({ id: 100, variant_index: 1, status: 'completed', progress: 100, realistic_upgrade: upgrade });
    const { calls } = mockApi({
      'GET /jobs/hook-pack/5/jobs': () => {
        round += 1;
        if (round === 1) return jsonResponse([draft({ job_id: 140, status: 'queued', progress: 0, error: null })]);
        if (round === 2)
          return jsonResponse([draft({ job_id: 140, status: 'in_progress', progress: 45, error: null })]);
        // Done: the pack's slot now shows the realistic video.
        return jsonResponse([
          makeJob({ id: 140, variant_index: 1, status: 'completed', progress: 100, render_quality: 'realistic' }),
        ]);
      },
      'GET /capabilities': () => jsonResponse(capabilities(true)),
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    const status = await screen.findByTestId('realistic-upgrade');
    expect(status).toHaveAttribute('data-status', 'queued');
    expect(status).toHaveTextContent(MESSAGES.jobs.upgradeQueued);
    // The draft job is finished, but the pack's video is still being made: the headline does not call it done.
    expect(screen.getByTestId('pack-jobs-headline')).toHaveTextContent('Making the video realistic…');
    expect(screen.queryByText('The video is done')).toBeNull();
    // Under way, the draft is not offered again.
    expect(screen.queryByRole('button', { name: /Make realistic/ })).toBeNull();
    await waitFor(() => expect(screen.getByTestId('realistic-upgrade')).toHaveAttribute('data-status', 'in_progress'), {
      timeout: 3000,
    });
    expect(screen.getByTestId('realistic-upgrade')).toHaveTextContent('45%');
    expect(screen.getByRole('progressbar', { name: 'Making realistic progress' })).toHaveAttribute(
      'aria-valuenow',
      '45',
    );
    expect(screen.getByRole('link', { name: MESSAGES.jobs.upgradeOpen })).toHaveAttribute('href', '/jobs/140');
    await waitFor(() => expect(screen.queryByTestId('realistic-upgrade')).toBeNull(), { timeout: 3000 });
    expect(screen.getByTestId('pack-jobs-headline')).toHaveTextContent('The video is done');
    const polls = calls.filter((c) => c.path === '/jobs/hook-pack/5/jobs').length;
    expect(polls).toBe(3);
    await new Promise((r) => setTimeout(r, 1300));
    // Nothing left running: polling stopped.
    expect(calls.filter((c) => c.path === '/jobs/hook-pack/5/jobs')).toHaveLength(polls);
    await userEvent.click(screen.getByTestId('pack-job-card'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/jobs/140'));
  }, 15_000);

  it("says how many of a finished pack's videos are still being made realistic, and not a failed upgrade", async () => {
    const done = (id: number, upgrade: Job['realistic_upgrade'] = null) =>
      makeJob({ id, variant_index: id, status: 'completed', progress: 100, realistic_upgrade: upgrade });
    mockApi({
      'GET /jobs/hook-pack/5/jobs': () =>
        jsonResponse([
          done(1, { job_id: 41, status: 'in_progress', progress: 30, error: null }),
          done(2),
          // A failed upgrade is not in flight: it does not count.
          done(3, { job_id: 43, status: 'failed', progress: 0, error: 'Provider timed out' }),
        ]),
      'GET /capabilities': () => jsonResponse(capabilities(true)),
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    await waitFor(() =>
      expect(screen.getByTestId('pack-jobs-headline')).toHaveTextContent(
        'All 3 videos are done; making 1 of them realistic…',
      ),
    );
  });

  it('says a failed "Make realistic" failed, why, and offers it again', async () => {
    mockApi({
      'GET /jobs/hook-pack/5/jobs': () =>
        jsonResponse([
          makeJob({
            id: 100,
            variant_index: 1,
            status: 'completed',
            progress: 100,
            realistic_upgrade_cost: 0.32,
            realistic_upgrade: {
              job_id: 140,
              status: 'failed',
              progress: 30,
              error: 'Provider error (ElevenLabs): Invalid key ***',
            },
          }),
        ]),
      'GET /capabilities': () => jsonResponse(capabilities(true)),
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    const status = await screen.findByTestId('realistic-upgrade');
    expect(status).toHaveAttribute('data-status', 'failed');
    expect(status).toHaveTextContent(MESSAGES.jobs.upgradeFailed);
    expect(status).toHaveTextContent('Provider error (ElevenLabs): Invalid key ***');
    expect(screen.queryByRole('progressbar', { name: 'Making realistic progress' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: /Make realistic/ })).toBeEnabled());
  });

  it("says 'Failed to load job status' while a status poll fails, and recovers on the next", async () => {
    allowConsoleError(); // the failed poll is logged as well (docs/product.md#jobs)
    let round = 0;
    mockApi({
      'GET /jobs/hook-pack/5/jobs': () => {
        round += 1;
        if (round === 2) return jsonResponse({ detail: 'Service unavailable' }, 503);
        return jsonResponse([
          round === 1
            ? makeJob({ id: 100, variant_index: 1, status: 'in_progress', progress: 40 })
            : makeJob({ id: 100, variant_index: 1, status: 'completed', progress: 100, video_url: 'static/v/1.mp4' }),
        ]);
      },
    });
    renderAt(<HookPackJobsPage />, { path: '/hook-packs/jobs/:id', entry: '/hook-packs/jobs/5' });
    expect(await screen.findByText('Video #1')).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.jobs.statusFailed)).toBeInTheDocument();
    expect(screen.getByText('Video #1')).toBeInTheDocument(); // the cards stay
    expect(screen.queryByText(MESSAGES.jobs.loadListFailed)).toBeNull();
    expect(await screen.findByRole('link', { name: /Download Videos/ })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.jobs.statusFailed)).toBeNull();
  }, 15_000);
});
