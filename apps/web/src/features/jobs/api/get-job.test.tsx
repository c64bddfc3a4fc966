import type { Job } from '@hookreel/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeJob, testQueryClient } from '@/test/render';
import { useJob } from './get-job';

afterEach(() => vi.unstubAllGlobals());

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
    const { result } = renderHook(() => useJob(7), { wrapper });
    await waitFor(() => expect(result.current.data?.realistic_upgrade?.progress).toBe(60), { timeout: 8000 });
    await waitFor(() => expect(result.current.data?.realistic_upgrade).toBeNull(), { timeout: 8000 });
    const calls = fetchMock.mock.calls.length;
    await new Promise((r) => setTimeout(r, 3500)); // longer than one poll interval (TIMINGS.jobPollMs)
    expect(fetchMock.mock.calls.length).toBe(calls);
  }, 20_000);
});
