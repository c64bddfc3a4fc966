import { MESSAGES } from '@hookreel/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allowConsoleError } from '@/test/console';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { mockApi } from '../test/fixtures';
import { HookPacksPage } from './hook-packs-page';

afterEach(() => vi.unstubAllGlobals());

const summaries = [
  {
    id: 1,
    name: 'Older',
    status: 'created',
    product_url: null,
    product_details: null,
    created_at: '2026-01-05T12:00:00Z',
  },
  {
    id: 2,
    name: 'Newest',
    status: 'videos_ready',
    product_url: 'hook-packs/2/p.png',
    product_details: 'Vitamin C serum',
    created_at: '2026-11-21T12:00:00Z',
  },
  {
    id: 3,
    name: null,
    status: 'generating_videos',
    product_url: null,
    product_details: '',
    created_at: '2026-06-01T12:00:00Z',
  },
  {
    id: 4,
    name: 'Odd',
    status: 'waiting_for_review',
    product_url: null,
    product_details: null,
    created_at: '2025-01-01T12:00:00Z',
  },
];

describe('HookPacksPage', () => {
  it('lists packs newest first with fallbacks, badges and long dates, fetched once', async () => {
    const { calls } = mockApi({ 'GET /hooks': () => jsonResponse(summaries) });
    renderWithProviders(<HookPacksPage />, { route: '/hook-packs' });
    const cards = await screen.findAllByTestId('hook-pack-card');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Newest',
      'Untitled Hook Pack',
      'Older',
      'Odd',
    ]);

    const [newest, untitled, older, odd] = cards as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(newest).getByRole('img')).toHaveAttribute('src', '/api/static/hook-packs/2/p.png');
    expect(within(newest).getByText('Vitamin C serum')).toHaveClass('line-clamp-2');
    expect(within(newest).getByText('November 21, 2026')).toBeInTheDocument();
    expect(newest).toHaveTextContent('Created on November 21, 2026');
    const readyBadge = within(newest).getByTestId('hook-pack-status');
    expect(readyBadge).toHaveTextContent('Videos Ready');
    expect(readyBadge).toHaveAttribute('data-colour', 'green');

    expect(within(untitled).getByText('No product image')).toBeInTheDocument();
    expect(within(untitled).getByText('No product details provided')).toBeInTheDocument();
    expect(within(untitled).getByTestId('hook-pack-status')).toHaveTextContent('Generating Videos');
    expect(within(untitled).getByTestId('hook-pack-status')).toHaveAttribute('data-colour', 'yellow');
    expect(within(older).getByTestId('hook-pack-status')).toHaveTextContent('Just Started');
    expect(within(older).getByTestId('hook-pack-status')).toHaveAttribute('data-colour', 'gray');
    expect(within(odd).getByTestId('hook-pack-status')).toHaveTextContent('Waiting For Review');

    expect(calls.filter((c) => c.path === '/hooks')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'New Hook Pack' })).toHaveAttribute('href', '/hook-packs/new');
  });

  it('shows a pack video being made realistic with its progress, polls until it is done, and links the jobs', async () => {
    let round = 0;
    const pack = summaries[1]!;
    const { calls } = mockApi({
      'GET /hooks': () => {
        round += 1;
        return jsonResponse([
          {
            ...pack,
            realistic_upgrades:
              round === 1 ? { count: 1, progress: 0 } : round === 2 ? { count: 1, progress: 60 } : null,
          },
        ]);
      },
    });
    renderWithProviders(<HookPacksPage />, { route: '/hook-packs' });
    const upgrade = await screen.findByTestId('pack-realistic-upgrades');
    expect(upgrade).toHaveTextContent('Making 1 video realistic');
    expect(upgrade).toHaveAttribute('href', '/hook-packs/jobs/2');
    await waitFor(() => expect(screen.getByTestId('pack-realistic-upgrades')).toHaveTextContent('60%'), {
      timeout: 3000,
    });
    expect(screen.getByRole('progressbar', { name: 'Making 1 video realistic: progress' })).toHaveAttribute(
      'aria-valuenow',
      '60',
    );
    await waitFor(() => expect(screen.queryByTestId('pack-realistic-upgrades')).toBeNull(), { timeout: 3000 });
    const polls = calls.filter((c) => c.path === '/hooks').length;
    await new Promise((r) => setTimeout(r, 1300));
    // Nothing is being upgraded any more: the list is not fetched again.
    expect(calls.filter((c) => c.path === '/hooks')).toHaveLength(polls);
  }, 15_000);

  it('opens a pack on step 2 via View Details (fromIndex state)', async () => {
    mockApi({ 'GET /hooks': () => jsonResponse(summaries.slice(1, 2)) });
    renderWithProviders(<HookPacksPage />, { route: '/hook-packs' });
    await userEvent.click(await screen.findByRole('link', { name: 'View Details' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/hook-packs/new/2');
  });

  it('shows three placeholders while loading, then the empty state', async () => {
    let release: (r: Response) => void = () => {};
    mockApi({ 'GET /hooks': () => new Promise<Response>((r) => (release = r)) });
    renderWithProviders(<HookPacksPage />, { route: '/hook-packs' });
    expect(await screen.findAllByTestId('hook-pack-placeholder')).toHaveLength(3);
    release(jsonResponse([]));
    expect(await screen.findByText('No Hook Packs Yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first hook pack to start generating engaging videos')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Hook Pack' })).toHaveAttribute('href', '/hook-packs/new');
  });

  it('shows the fetch-failed banner', async () => {
    allowConsoleError();
    mockApi({ 'GET /hooks': () => jsonResponse({ detail: 'boom' }, 500) });
    renderWithProviders(<HookPacksPage />, { route: '/hook-packs' });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.hookPacks.fetchFailed);
  });
});
