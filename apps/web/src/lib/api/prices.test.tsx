import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GenerateMoreDialog } from '@/features/hook-packs/components/generate-more-dialog';
import { PackCostEstimate } from '@/features/hook-packs/components/pack-cost-estimate';
import { holdPriceList, makePriceList, makeUser, renderWithProviders } from '@/test/render';

/** A price list unlike the client's constants in every figure, so a screen that used them would show it. */
const serverPrices = makePriceList({
  prices: { video: 2, characterGeneration: 0.25, previewImage: 0.5, merge: 0.3 },
  characters_per_type: 3,
  videos_per_pack: 10,
});

/** fetch answering the price list only when the test lets it. */
function holdPrices() {
  const release = holdPriceList();
  return () => release(serverPrices);
}

afterEach(() => vi.unstubAllGlobals());

describe('screens price from the server', () => {
  it('the pack estimate shows no figure while prices load, then sums the server prices and counts', async () => {
    const release = holdPrices();
    const auth = {
      status: 'authenticated' as const,
      user: makeUser({ credits: 20 }),
      isAdmin: false,
      refreshUser: async () => null,
      logout: async () => {},
    };
    renderWithProviders(<PackCostEstimate characterTypes={2} />, { auth });
    const estimate = screen.getByTestId('pack-cost');
    expect(estimate).toHaveAttribute('aria-busy', 'true');
    expect(estimate).toHaveTextContent('Loading prices…');
    expect(estimate.textContent).not.toMatch(/\d/);

    release();
    // 2 types × 3 characters: 6 × 0.25 = 1.50, 6 previews × 0.5 = 3.00, 10 videos × 2 = 20.00; total 24.50.
    await waitFor(() => expect(screen.getByTestId('pack-total')).toHaveTextContent('24.50 credits'));
    expect(estimate).toHaveTextContent('6 characters (3 per type)');
    expect(estimate).toHaveTextContent('Up to 6 previews');
    expect(estimate).toHaveTextContent('10 videos');
    expect(screen.getByTestId('pack-left')).toHaveTextContent('−4.50');
  });

  it("'Generate More' names no price until the server answers, then the server's", async () => {
    const release = holdPrices();
    renderWithProviders(<GenerateMoreDialog open onOpenChange={() => {}} onSubmit={() => {}} />);
    expect(screen.getByRole('button', { name: /^Generate/ })).toHaveAccessibleName('Generate 4');
    expect(screen.queryByTestId('cost')).toBeNull();
    release();
    // 4 characters × 0.25.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Generate/ })).toHaveAccessibleName('Generate 4 · 1.00 credit'),
    );
  });
});
