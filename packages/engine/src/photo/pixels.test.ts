import { describe, expect, it } from 'vitest';
import { lightness, toLab } from './pixels.ts';

describe('lightness', () => {
  it('is the L* of toLab, exactly, across the 8-bit RGB cube', () => {
    let differ = 0;
    for (let r = 0; r < 256; r += 5)
      for (let g = 0; g < 256; g += 3)
        for (let b = 0; b < 256; b += 7) if (lightness(r, g, b) !== toLab(r, g, b).l) differ++;
    expect(differ).toBe(0);
    expect(lightness(255, 255, 255)).toBeCloseTo(100, 6);
    expect(lightness(0, 0, 0)).toBe(0);
  });
});
