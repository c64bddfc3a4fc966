import { MESSAGES } from '@hookreel/contracts';
import { screen, within } from '@testing-library/react';
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
