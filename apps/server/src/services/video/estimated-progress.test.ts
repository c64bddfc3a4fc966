import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { estimatedPercent, withEstimatedProgress } from './estimated-progress.ts';

const step = { from: 5, to: 90, expectedMs: 10_000 };

describe('estimatedPercent', () => {
  it('starts at from, is about 63% of the way after the expected time, and stays below to', () => {
    expect(estimatedPercent(step, 0)).toBe(5);
    expect(estimatedPercent(step, 10_000)).toBe(58); // 5 + 85 × 0.632
    expect(estimatedPercent(step, 10 * 60_000)).toBe(89);
  });

  it('never goes backwards as time passes', () => {
    const values = Array.from({ length: 120 }, (_, s) => estimatedPercent(step, s * 1000));
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('withEstimatedProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('moves the bar while the step runs, forward only, and stops when it ends', async () => {
    const reported: number[] = [];
    let finish!: (v: string) => void;
    const running = withEstimatedProgress(
      async (p) => {
        reported.push(p);
      },
      step,
      () => new Promise<string>((resolve) => (finish = resolve)),
    );
    await vi.advanceTimersByTimeAsync(20_000);
    expect(reported.length).toBeGreaterThan(10);
    expect(reported).toEqual([...new Set(reported)].sort((a, b) => a - b));
    expect(reported.at(-1)).toBe(estimatedPercent(step, 20_000));

    finish('cut out');
    await expect(running).resolves.toBe('cut out');
    const count = reported.length;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(reported).toHaveLength(count);
  });

  it('passes the step failure through and ignores a failed update', async () => {
    const running = withEstimatedProgress(
      () => Promise.reject(new Error('database busy')),
      step,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        throw new Error('cut-out failed');
      },
    );
    const outcome = expect(running).rejects.toThrow('cut-out failed');
    await vi.advanceTimersByTimeAsync(5_000);
    await outcome;
  });
});
