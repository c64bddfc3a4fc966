import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdPriceList, jsonResponse, makePriceList, renderWithProviders } from '@/test/render';
import { BatchesPage } from './batches-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

/** The server's price list, with a per-video price unlike the client's constant so the test tells them apart. */
const priceList = (video: number) => makePriceList({ prices: { video } });

afterEach(() => vi.unstubAllGlobals());

describe('BatchesPage price per video', () => {
  it("shows no figure until the server's price list answers, then the server's price", async () => {
    const releasePrices = holdPriceList({ '/api/batches': [] });
    renderWithProviders(<BatchesPage />, { route: '/batches' });
    const price = screen.getByTestId('batch-video-price');
    expect(price).toHaveTextContent('Loading the price per video…');
    expect(price).toHaveAttribute('aria-busy', 'true');
    expect(price.textContent).not.toMatch(/\d/);

    releasePrices(priceList(2.5));
    await waitFor(() => expect(price).toHaveTextContent('Each video costs 2.50 credits.'));
    expect(price).toHaveAttribute('aria-busy', 'false');
  });

  it('says the price comes with the checked rows when the price list fails, still with no made-up figure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/credits/prices') return jsonResponse({ detail: 'Server error' }, 500);
        if (url === '/api/batches') return jsonResponse([]);
        return jsonResponse({ detail: 'Not found' }, 404);
      }),
    );
    renderWithProviders(<BatchesPage />, { route: '/batches' });
    const price = screen.getByTestId('batch-video-price');
    await waitFor(() => expect(price).toHaveTextContent('The price of each row shows when you check them.'));
    expect(price.textContent).not.toMatch(/\d/);
  });
});
