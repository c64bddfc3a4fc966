import { describe, expect, it } from 'vitest';
import { shortDate, suggestPackName } from './pack-name';

const day = new Date(2026, 10, 23);

describe('suggestPackName', () => {
  it('names the pack after the product and the day', () => {
    expect(shortDate(day)).toBe('Nov 23');
    expect(suggestPackName({ productDetails: 'Glow Serum, a vitamin C face serum', date: day })).toBe(
      'Glow Serum — Nov 23',
    );
    expect(suggestPackName({ fileName: 'glow-serum.png', category: 'skincare', shape: 'bottle', date: day })).toBe(
      'Glow Serum — Nov 23',
    );
  });

  it('prefers what the analysis saw over a file name a camera made up', () => {
    expect(suggestPackName({ fileName: 'IMG_2041.JPG', category: 'skincare', shape: 'bottle', date: day })).toBe(
      'Skincare Bottle — Nov 23',
    );
    expect(suggestPackName({ fileName: '20231123_101010.png', date: day })).toBe('Product — Nov 23');
    expect(suggestPackName({ category: 'other', shape: 'other', date: day })).toBe('Product — Nov 23');
  });
});
