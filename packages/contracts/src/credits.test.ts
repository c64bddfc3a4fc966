import { describe, expect, it } from 'vitest';
import { costOf, creditsTimes, fromHundredths, roundCredits, toHundredths } from './credits.ts';

describe('credits arithmetic', () => {
  it('converts between credits and the hundredths the database stores', () => {
    expect(toHundredths(0.1 + 0.2)).toBe(30);
    expect(toHundredths(13.2)).toBe(1320);
    expect(fromHundredths(1320)).toBe(13.2);
  });

  it('rounds sums, differences and products to the hundredth', () => {
    expect(roundCredits(0.1 + 0.2)).toBe(0.3);
    expect(roundCredits(20 - 13.2)).toBe(6.8);
    expect(creditsTimes(0.1, 3)).toBe(0.3);
    expect(creditsTimes(0.05, 7)).toBe(0.35);
    expect(costOf('previewImage', 3)).toBe(0.3);
  });
});
