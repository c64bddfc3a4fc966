import { describe, expect, it } from 'vitest';
import { DRAFT_WAIT_UNMEASURED, packSecondsLeft, packWaitText, REALISTIC_WAIT_UNMEASURED } from './progress';

const job = (
  status: 'queued' | 'in_progress' | 'completed' | 'failed',
  eta_seconds: number | null,
  render_quality: 'draft' | 'realistic' = 'draft',
) => ({ status, eta_seconds, render_quality });

describe('the wait for a pack', () => {
  it('is the latest estimate among the unfinished videos', () => {
    const jobs = [job('completed', null), job('in_progress', 8), job('queued', 42), job('queued', 27)];
    expect(packSecondsLeft(jobs)).toBe(42);
    expect(packWaitText(jobs)).toBe('About 42 s left, measured on this server.');
    expect(packWaitText([job('queued', 200)])).toBe('About 3 min left, measured on this server.');
  });

  it('gives no figure while nothing was measured, and ignores finished videos', () => {
    expect(packSecondsLeft([job('queued', null), job('completed', null)])).toBeNull();
    expect(packWaitText([job('queued', null)])).toBe(DRAFT_WAIT_UNMEASURED);
    expect(DRAFT_WAIT_UNMEASURED).not.toMatch(/\d/);
    expect(packSecondsLeft([job('failed', null)])).toBeNull();
    expect(packWaitText([])).toBe(DRAFT_WAIT_UNMEASURED);
  });

  it('gives no Draft range for Realistic videos the server has not timed, and the measured time once it has', () => {
    expect(packWaitText([job('queued', null, 'realistic'), job('in_progress', null, 'realistic')])).toBe(
      REALISTIC_WAIT_UNMEASURED,
    );
    expect(packWaitText([job('completed', null, 'realistic'), job('queued', null)])).toBe(DRAFT_WAIT_UNMEASURED);
    expect(packWaitText([job('in_progress', 150, 'realistic')])).toBe('About 3 min left, measured on this server.');
  });
});
