import { describe, expect, it } from 'vitest';
import { isRepeatClick } from './repeat-click';

describe('isRepeatClick', () => {
  it('is true for the second click of a double click only, not for a click or keyboard activation', () => {
    expect([1, 2, 0, 3].map((detail) => isRepeatClick({ detail }))).toEqual([false, true, false, true]);
  });
});
