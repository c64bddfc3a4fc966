import { TIMINGS } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { displayProgress, formatRemaining, showsProgressBar } from './job-progress';

const t0 = Date.parse('2025-01-01T00:00:00.000Z');
const job = (status: string, progress: number) => ({
  status: status as 'queued',
  progress,
  created_at: new Date(t0).toISOString(),
});

describe('displayProgress', () => {
  it('uses the real progress when the job reports some', () => {
    expect(displayProgress(job('in_progress', 42), t0 + 60_000)).toEqual({ percent: 42, estimated: false });
  });
  it('estimates from created_at over 22 minutes when progress is 0', () => {
    const half = displayProgress(job('in_progress', 0), t0 + TIMINGS.estimatedJobDurationMs / 2);
    expect(half.estimated).toBe(true);
    expect(half.percent).toBe(50);
    expect(displayProgress(job('queued', 0), t0 + TIMINGS.estimatedJobDurationMs / 4).percent).toBe(25);
  });
  it('caps the estimate at 99% until done', () => {
    expect(displayProgress(job('in_progress', 0), t0 + 10 * TIMINGS.estimatedJobDurationMs).percent).toBe(99);
  });
  it('shows 100 for completed jobs and the real figure for failed ones', () => {
    expect(displayProgress(job('completed', 0), t0).percent).toBe(100);
    expect(displayProgress(job('failed', 0), t0 + 600_000)).toEqual({ percent: 0, estimated: false });
  });
  it('prefers the measured time left from the server over the fixed 22 minutes', () => {
    const measured = displayProgress({ ...job('queued', 0), eta_seconds: 28 }, t0 + 60_000);
    expect(measured).toEqual({ percent: 0, estimated: false, remainingMs: 28_000 });
    expect(formatRemaining(measured.remainingMs!)).toBe('About 30 s left');
    expect(formatRemaining(4_000)).toBe('Almost done');
    expect(formatRemaining(22 * 60_000)).toBe('About 22 min left');
    // No measurement yet (null): the fixed rule stays.
    expect(displayProgress({ ...job('queued', 0), eta_seconds: null }, t0).estimated).toBe(true);
  });
  it('shows a bar only for non-completed non-failed jobs', () => {
    expect(showsProgressBar('queued')).toBe(true);
    expect(showsProgressBar('in_progress')).toBe(true);
    expect(showsProgressBar('weird')).toBe(true);
    expect(showsProgressBar('completed')).toBe(false);
    expect(showsProgressBar('failed')).toBe(false);
  });
});
