import { describe, expect, it } from 'vitest';
import { formatLongDate, packDetails, packName, sortNewestFirst } from './list';

describe('hook pack list helpers', () => {
  it('sorts newest first by created_at', () => {
    const packs = [
      { id: 1, created_at: '2026-01-02T10:00:00Z' },
      { id: 2, created_at: '2026-03-01T10:00:00Z' },
      { id: 3, created_at: '2025-12-31T10:00:00Z' },
    ];
    expect(sortNewestFirst(packs).map((p) => p.id)).toEqual([2, 1, 3]);
    expect(packs.map((p) => p.id)).toEqual([1, 2, 3]); // not mutated
  });

  it('formats a long date as "Month day, year"', () => {
    expect(formatLongDate('2026-11-21T12:00:00Z')).toBe('November 21, 2026');
  });

  it('falls back for a missing name and details', () => {
    expect(packName(null)).toBe('Untitled Hook Pack');
    expect(packName('  ')).toBe('Untitled Hook Pack');
    expect(packName('Glow')).toBe('Glow');
    expect(packDetails(null)).toBe('No product details provided');
    expect(packDetails('Vitamin C serum')).toBe('Vitamin C serum');
  });
});
