import type { Job } from '@hookreel/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { jsonResponse, makeJob, testQueryClient } from '@/test/render';
import { JOB_EVENT, useJobEvents } from './job-events';

/** An EventSource that the test drives: `emit` delivers a server-sent event by name, as a browser does. */
class FakeEventSource extends EventTarget {
  static last: FakeEventSource | null = null;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: MessageEvent<string>) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.last = this;
  }
  emit(name: string, data: unknown) {
    const event = new MessageEvent<string>(name, { data: JSON.stringify(data) });
    if (name === 'message') this.onmessage?.(event);
    this.dispatchEvent(event);
  }
  close() {
    this.closed = true;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.last = null;
});

describe('useJobEvents', () => {
  it('opens the stream with a short-lived ticket, never the access token', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const fetchMock = vi.fn(async () => jsonResponse({ ticket: 't-123', expires_in: 60 }));
    vi.stubGlobal('fetch', fetchMock);
    localStorage.setItem('access_token', 'secret-access-token');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={testQueryClient()}>{children}</QueryClientProvider>
    );
    const { unmount } = renderHook(() => useJobEvents(), { wrapper });
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());

    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe('/api/jobs/events/ticket');
    expect(FakeEventSource.last!.url).toBe('/api/jobs/events?ticket=t-123');
    expect(FakeEventSource.last!.url).not.toContain('secret-access-token');
    unmount();
    localStorage.clear();
  });

  it('applies the server’s named job events to the list and detail caches', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ ticket: 't', expires_in: 60 })),
    );
    const queryClient = testQueryClient();
    const running = makeJob({ id: 7, status: 'in_progress', progress: 40 });
    queryClient.setQueryData<Job[]>(queryKeys.jobs.list(), [running]);
    queryClient.setQueryData<Job>(queryKeys.jobs.detail(7), running);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { unmount } = renderHook(() => useJobEvents(), { wrapper });
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());

    const source = FakeEventSource.last!;
    expect(source.url).toContain('/jobs/events');
    const done = makeJob({ id: 7, status: 'completed', progress: 100, video_url: 'static/v.mp4' });
    source.emit(JOB_EVENT, { type: 'job', job: done });

    expect(queryClient.getQueryData<Job[]>(queryKeys.jobs.list())).toEqual([done]);
    expect(queryClient.getQueryData<Job>(queryKeys.jobs.detail(7))).toEqual(done);

    // A job the list has not seen yet goes on top.
    const fresh = makeJob({ id: 8, status: 'queued', progress: 0 });
    source.emit(JOB_EVENT, { type: 'job', job: fresh });
    expect(queryClient.getQueryData<Job[]>(queryKeys.jobs.list())?.map((j) => j.id)).toEqual([8, 7]);

    unmount();
    expect(source.closed).toBe(true);
  });
});
