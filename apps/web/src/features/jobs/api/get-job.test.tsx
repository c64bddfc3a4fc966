import { TIMINGS, type Job } from '@hookreel/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeJob, testQueryClient } from '@/test/render';
import { useJob } from './get-job';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// The poll's clock is the test's: each interval passes at once instead of 3 s of waiting.
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={testQueryClient()}>{children}</QueryClientProvider>
);

describe('useJob', () => {
  it('keeps polling a finished draft while its "Make realistic" runs, and stops once it is done', async () => {
    const answers: Job[] = [
      makeJob({
        id: 7,
        status: 'completed',
        progress: 100,
        realistic_upgrade: { job_id: 9, status: 'queued', progress: 0, error: null },
      }),
      makeJob({
        id: 7,
        status: 'completed',
        progress: 100,
        realistic_upgrade: { job_id: 9, status: 'in_progress', progress: 60, error: null },
      }),
      makeJob({ id: 7, status: 'completed', progress: 100, realistic_upgrade: null }),
    ];
    let n = 0;
    const fetchMock = vi.fn(async () => jsonResponse(answers[Math.min(n++, answers.length - 1)]));
    vi.stubGlobal('fetch', fetchMock);
    vi.useFakeTimers();
    const { result } = renderHook(() => useJob(7), { wrapper });
    // The first answer: its poll interval starts when it has been read.
    for (let i = 0; i < 100 && !result.current.data; i++) await advance(10);
    expect(result.current.data?.realistic_upgrade?.status).toBe('queued');
    await advance(TIMINGS.jobPollMs);
    expect(result.current.data?.realistic_upgrade?.progress).toBe(60);
    await advance(TIMINGS.jobPollMs);
    expect(result.current.data?.realistic_upgrade).toBeNull();
    const calls = fetchMock.mock.calls.length;
    await advance(TIMINGS.jobPollMs + 500); // longer than one poll interval
    expect(fetchMock.mock.calls.length).toBe(calls);
  });
});
