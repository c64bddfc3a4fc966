import { describe, expect, it } from 'vitest';
import { LIST_PRICES, costInUsd, providerPrices, usdOf } from './provider-prices.ts';

const none = {
  usdPerImage: undefined,
  usdPer1kCharacters: undefined,
  usdPerSecond: undefined,
  asOf: undefined,
  avatarModel: undefined,
  imageQuality: undefined,
};

describe('provider prices', () => {
  it('takes the list price of the configured avatar model and image quality, dated', () => {
    expect(providerPrices(none)).toEqual({
      as_of: LIST_PRICES.asOf,
      source: 'list',
      usd_per_image: 0.063,
      usd_per_1k_characters: 0.12,
      usd_per_second: 0.14,
    });
    const v15 = providerPrices({ ...none, avatarModel: 'fal-ai/bytedance/omnihuman/v1.5', imageQuality: 'low' });
    expect([v15.usd_per_second, v15.usd_per_image]).toEqual([0.16, 0.016]);
    // `auto` may bill at the top tier; an unknown model is priced as the default one.
    const other = providerPrices({ ...none, avatarModel: 'someone/else', imageQuality: 'auto' });
    expect([other.usd_per_second, other.usd_per_image]).toEqual([0.14, 0.25]);
  });

  it("uses the operator's prices where set, and their date", () => {
    expect(providerPrices({ ...none, usdPerSecond: 0.1, asOf: '2027-01-15' })).toEqual({
      as_of: '2027-01-15',
      source: 'operator',
      usd_per_image: 0.063,
      usd_per_1k_characters: 0.12,
      usd_per_second: 0.1,
    });
  });

  it('counts units in dollars to the cent; a job with no cost has none', () => {
    const prices = providerPrices(none);
    // 1 image $0.063 + 200 characters $0.024 + 15 s $2.10.
    expect(usdOf({ images: 1, characters: 200, seconds: 15 }, prices)).toBe(2.19);
    expect(usdOf({ images: 0, characters: 0, seconds: 0 }, prices)).toBe(0);
    expect(costInUsd(null, prices)).toBeNull();
    expect(costInUsd({ images: 2, characters: 0, seconds: 0, calls: 2 }, prices)).toEqual({ usd: 0.13, prices });
  });
});
