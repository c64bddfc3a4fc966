import { describe, expect, it } from 'vitest';
import { providerCostLine } from './provider-cost';

const prices = {
  as_of: '2026-11',
  source: 'list' as const,
  usd_per_image: 0.063,
  usd_per_1k_characters: 0.12,
  usd_per_second: 0.14,
};

describe('providerCostLine', () => {
  it('puts the money beside the units, with the prices it was counted at', () => {
    expect(
      providerCostLine({
        cost: { images: 1, characters: 200, seconds: 8.4, calls: 3 },
        cost_usd: { usd: 1.26, prices },
      }),
    ).toBe('8.4 s · 200 characters · 1 image · 3 calls — $1.26 at list prices of 2026-11');
    expect(
      providerCostLine({
        cost: { images: 2, characters: 0, seconds: 0, calls: 2 },
        cost_usd: { usd: 0.5, prices: { ...prices, source: 'operator', as_of: '2027-01-15' } },
      }),
    ).toBe('2 images · 2 calls — $0.50 at operator prices of 2027-01-15');
  });

  it('shows nothing for a job that called no provider, and units alone without prices', () => {
    expect(providerCostLine({ cost: null, cost_usd: null })).toBeNull();
    expect(providerCostLine({ cost: { images: 1, characters: 0, seconds: 0, calls: 1 }, cost_usd: null })).toBe(
      '1 image · 1 call',
    );
  });
});
