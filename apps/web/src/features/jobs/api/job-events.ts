import { EventsTicket, type Job, JobEvent } from '@hookreel/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { config } from '@/config';
import { queryKeys } from '@/lib/query-keys';
import { api } from '@/lib/api-client';

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

/** POST /api/jobs/events/ticket: a 60-second ticket that only opens the event stream. */
export async function fetchEventsTicket(): Promise<string> {
  return EventsTicket.parse(await api.post('/jobs/events/ticket')).ticket;
}

/**
 * GET /api/jobs/events — server-sent `{type:'job', job}` updates, preferred over polling when the stream is
 * open (polling stays on as the fallback). EventSource cannot send headers, and an access token in a URL ends
 * up in logs, so each connection opens with a fresh short-lived ticket instead.
 */
export function useJobEvents(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return undefined;
    let source: EventSource | null = null;
    let timer: number | undefined;
    let attempts = 0;
    let closed = false;

    const retry = () => {
      if (closed || attempts >= MAX_RECONNECTS) return;
      attempts += 1;
      timer = window.setTimeout(() => void connect(), RECONNECT_MS * attempts);
    };

    const connect = async () => {
      let ticket: string;
      try {
        ticket = await fetchEventsTicket();
      } catch {
        return retry();
      }
      if (closed) return;
      source = new EventSource(`${config.apiBase}/jobs/events?ticket=${encodeURIComponent(ticket)}`);
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
        // Reconnect with a new ticket (the old one lives only a minute).
        retry();
      };
    };
    void connect();
    return () => {
      closed = true;
      window.clearTimeout(timer);
      source?.close();
    };
  }, [enabled, queryClient]);
}
