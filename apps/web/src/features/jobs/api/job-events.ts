import { type Job, JobEvent } from '@hookreel/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { config } from '@/config';
import { queryKeys } from '@/lib/query-keys';
import { session } from '@/lib/session';

/** The SSE event name the server sends job updates under. */
export const JOB_EVENT = 'job';
const RECONNECT_MS = 5000;
const MAX_RECONNECTS = 5;

/** Writes one job update into the list and detail caches. */
export function applyJobUpdate(queryClient: QueryClient, job: Job): void {
  queryClient.setQueryData<Job[]>(queryKeys.jobs.list(), (jobs) => {
    if (!jobs) return jobs;
    const i = jobs.findIndex((j) => j.id === job.id);
    if (i === -1) return [job, ...jobs];
    const next = jobs.slice();
    next[i] = job;
    return next;
  });
  queryClient.setQueryData<Job>(queryKeys.jobs.detail(job.id), (old) => (old ? job : old));
}

/**
 * GET /api/jobs/events — server-sent `{type:'job', job}` updates, preferred over polling when the stream is
 * open (polling stays on as the fallback). EventSource cannot send headers, so the token rides in the query.
 */
export function useJobEvents(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return undefined;
    let source: EventSource | null = null;
    let timer: number | undefined;
    let attempts = 0;
    let closed = false;

    const connect = () => {
      const token = session.getAccessToken();
      const url = `${config.apiBase}/jobs/events${token ? `?access_token=${encodeURIComponent(token)}` : ''}`;
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => {
        attempts = 0;
      };
      // The server names its events (`event: job`); onmessage would only see unnamed ones.
      source.addEventListener(JOB_EVENT, (e: MessageEvent<string>) => {
        try {
          const parsed = JobEvent.safeParse(JSON.parse(e.data));
          if (parsed.success) applyJobUpdate(queryClient, parsed.data.job);
        } catch {
          /* malformed data: ignore */
        }
      });
      source.onerror = () => {
        source?.close();
        source = null;
        if (closed || attempts >= MAX_RECONNECTS) return;
        attempts += 1;
        // Reconnect with the current token (it may have been refreshed meanwhile).
        timer = window.setTimeout(connect, RECONNECT_MS * attempts);
      };
    };
    connect();
    return () => {
      closed = true;
      window.clearTimeout(timer);
      source?.close();
    };
  }, [enabled, queryClient]);
}
