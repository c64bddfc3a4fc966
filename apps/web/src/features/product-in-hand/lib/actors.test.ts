import { describe, expect, it } from 'vitest';
import { canGenerate, mergeProgress, type MergeState, toggleSize } from './actors';

describe('toggleSize', () => {
  it('removes and adds sizes in catalogue order', () => {
    expect(toggleSize(['small', 'medium', 'large'], 'medium')).toEqual(['small', 'large']);
    expect(toggleSize(['large'], 'small')).toEqual(['small', 'large']);
  });
  it('always keeps at least one size selected', () => {
    expect(toggleSize(['large'], 'large')).toEqual(['large']);
    let s = toggleSize(['small', 'medium', 'large'], 'small');
    s = toggleSize(s, 'medium');
    s = toggleSize(s, 'large');
    expect(s).toEqual(['large']);
  });
});

describe('canGenerate', () => {
  const states = (entries: Array<[number, MergeState]>) => new Map(entries);
  it('needs every actor merged and a non-empty script', () => {
    expect(
      canGenerate(
        [1, 2],
        states([
          [1, 'merged'],
          [2, 'merged'],
        ]),
        'Hi there',
      ),
    ).toBe(true);
    expect(
      canGenerate(
        [1, 2],
        states([
          [1, 'merged'],
          [2, 'applying'],
        ]),
        'Hi there',
      ),
    ).toBe(false);
    expect(canGenerate([1, 2], states([[1, 'merged']]), 'Hi there')).toBe(false);
    expect(canGenerate([1], states([[1, 'merged']]), '   ')).toBe(false);
    expect(canGenerate([], states([]), 'Hi')).toBe(false);
  });
});

describe('mergeProgress', () => {
  it('prefers the server figure, else estimates over ~15 s capped at 95', () => {
    expect(mergeProgress(60, 0, 0, 15_000)).toBe(60);
    expect(mergeProgress(0, 1000, 1000 + 7500, 15_000)).toBe(50);
    expect(mergeProgress(0, 1000, 1000 + 60_000, 15_000)).toBe(95);
  });
});
