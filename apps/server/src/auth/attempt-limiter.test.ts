import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from './attempt-limiter.ts';

describe('AttemptLimiter', () => {
  const MIN = 60_000;

  it('blocks a key after max events in the window, until the oldest of them leaves it', () => {
    const limiter = new AttemptLimiter(3, 15 * MIN);
    const t0 = 1_000_000;
    limiter.record('ada', t0);
    limiter.record('ada', t0 + MIN);
    expect(limiter.blockedFor('ada', t0 + MIN)).toBe(0);
    limiter.record('ada', t0 + 2 * MIN);
    expect(limiter.blockedFor('ada', t0 + 2 * MIN)).toBe(13 * MIN);
    expect(limiter.blockedFor('ada', t0 + 15 * MIN - 1)).toBe(1);
    expect(limiter.blockedFor('ada', t0 + 15 * MIN)).toBe(0);
    // Other keys are counted apart.
    expect(limiter.blockedFor('bob', t0 + 2 * MIN)).toBe(0);
  });

  it('forgets a key on clear (a successful sign-in)', () => {
    const limiter = new AttemptLimiter(2, MIN);
    limiter.record('ada', 1);
    limiter.record('ada', 2);
    expect(limiter.blockedFor('ada', 3)).toBeGreaterThan(0);
    limiter.clear('ada');
    expect(limiter.blockedFor('ada', 3)).toBe(0);
  });

  it('stays bounded under a flood of distinct keys', () => {
    const limiter = new AttemptLimiter(1, MIN, 1000);
    for (let i = 0; i < 5000; i++) limiter.record(`key-${i}`, 10);
    // The newest keys are still counted; the map never holds more than its bound.
    expect(limiter.blockedFor('key-4999', 10)).toBeGreaterThan(0);
    expect((limiter as unknown as { events: Map<string, number[]> }).events.size).toBeLessThanOrEqual(1000);
  });
});
