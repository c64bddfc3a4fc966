import type { Job } from '@hookreel/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeJob, renderWithProviders } from '@/test/render';
import { JobCard } from './job-card';

const renderCard = (job: Job) => renderWithProviders(<JobCard job={job} onView={vi.fn()} onDelete={vi.fn()} />);

describe('JobCard', () => {
  it.each([
    ['queued', 'Queued'],
    ['in_progress', 'Processing'],
    ['completed', 'Done'],
    ['failed', 'Failed'],
    ['something_else', 'Waiting'],
  ])('labels status %s as %s', (status, label) => {
    renderCard(makeJob({ status: status as Job['status'] }));
    expect(screen.getByTestId('job-status')).toHaveTextContent(label);
  });

  it('shows the project name and a real progress bar while running', () => {
    renderCard(makeJob());
    expect(screen.getByText('Summer Serum')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    expect(screen.getByTestId('job-progress-value')).toHaveTextContent('40%');
  });

  it('shows the 22-minute estimate for a queued job at 0 progress', () => {
    const created = new Date(Date.now() - 11 * 60_000).toISOString();
    renderCard(makeJob({ status: 'queued', progress: 0, created_at: created }));
    expect(screen.getByTestId('job-progress-value')).toHaveTextContent('50%');
    expect(screen.getByText(/min left/)).toBeInTheDocument();
  });

  it('has no progress bar for completed or failed jobs; failed shows a red cross', () => {
    renderCard(makeJob({ status: 'failed', progress: 10 }));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    const badge = screen.getByTestId('job-status');
    expect(within(badge).getByTestId('failed-icon')).toHaveClass('text-red-600');
  });

  it('shows the poster thumbnail when present', () => {
    renderCard(makeJob({ status: 'completed', poster_url: 'static/posters/7.jpg' }));
    expect(screen.getByRole('img')).toHaveAttribute('src', '/api/static/posters/7.jpg');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says when the project behind the video has been deleted, and still offers the video', () => {
    renderCard(makeJob({ status: 'completed', project_deleted: true, project_id: null, video_url: 'static/v/7.mp4' }));
    expect(screen.getByTestId('job-card-project-deleted')).toHaveTextContent('Project deleted · the video is kept');
    expect(screen.getByText('Summer Serum')).toBeInTheDocument();
  });
  it('says nothing of deletion while the project exists', () => {
    renderCard(makeJob());
    expect(screen.queryByTestId('job-card-project-deleted')).toBeNull();
  });
});

describe('JobCard contact sheet', () => {
  it('shows the 6-frame contact sheet over the poster on hover and on keyboard focus', async () => {
    renderCard(
      makeJob({
        status: 'completed',
        poster_url: 'static/u1/job-7/poster.jpg',
        contact_sheet_url: 'static/u1/job-7/contact-sheet.jpg',
      }),
    );
    const poster = screen.getByRole('img', { name: 'Summer Serum poster' });
    await userEvent.hover(poster);
    expect(screen.getByTestId('contact-sheet')).toHaveAttribute('src', '/api/static/u1/job-7/contact-sheet.jpg');
    await userEvent.unhover(poster);
    expect(screen.queryByTestId('contact-sheet')).toBeNull();
    await userEvent.tab();
    expect(screen.getByTestId('contact-sheet')).toBeInTheDocument();
  });
});

describe('JobCard "Make realistic" of a project draft', () => {
  const draft = (upgrade: Job['realistic_upgrade']) =>
    makeJob({ id: 7, status: 'completed', progress: 100, realistic_upgrade: upgrade });

  it('shows the upgrade running with its progress and a link to its job', () => {
    renderCard(draft({ job_id: 12, status: 'in_progress', progress: 45, error: null }));
    const status = screen.getByTestId('realistic-upgrade');
    expect(status).toHaveAttribute('data-status', 'in_progress');
    expect(status).toHaveTextContent('Making realistic');
    expect(status).toHaveTextContent('45%');
    expect(within(status).getByRole('progressbar', { name: 'Making realistic progress' })).toBeInTheDocument();
    expect(within(status).getByRole('link', { name: 'View the realistic job' })).toHaveAttribute('href', '/jobs/12');
  });

  it('says when the upgrade is waiting to start', () => {
    renderCard(draft({ job_id: 12, status: 'queued', progress: 0, error: null }));
    expect(screen.getByTestId('realistic-upgrade')).toHaveTextContent('Making realistic · waiting to start');
  });

  it('says the upgrade failed, why, and that its credits were returned', () => {
    renderCard(draft({ job_id: 12, status: 'failed', progress: 30, error: 'Provider error (fal): busy' }));
    const status = screen.getByTestId('realistic-upgrade');
    expect(status).toHaveTextContent('Making it realistic failed; its credits were returned.');
    expect(status).toHaveTextContent('Provider error (fal): busy');
    expect(within(status).getByRole('link', { name: 'View the realistic job' })).toHaveAttribute('href', '/jobs/12');
  });

  it('shows nothing of an upgrade when there is none', () => {
    renderCard(draft(null));
    expect(screen.queryByTestId('realistic-upgrade')).toBeNull();
  });
});
