import { isTerminalJobStatus, Job, realisticUpgradeUnderway, TIMINGS } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const JobList = z.array(Job);

/** GET /api/jobs/ — the user's jobs, newest first. */
export const getJobs = async (signal?: AbortSignal): Promise<Job[]> => {
  const data = await api.get('/jobs/', { signal });
  return JobList.parse(data).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
};

/** Some job is not done yet, or some draft's "Make realistic" is (its card shows the upgrade's progress). */
export const anyJobRunning = (jobs: readonly Job[] | undefined): boolean =>
  Boolean(jobs?.some((j) => !isTerminalJobStatus(j.status) || realisticUpgradeUnderway(j)));

/**
 * The jobs list, polled every TIMINGS.jobPollMs while any job is not completed or failed. A failed poll is
 * logged and polling goes on (docs/product.md#jobs).
 */
export function useJobs() {
  const query = useQuery({
    queryKey: queryKeys.jobs.list(),
    queryFn: ({ signal }) => getJobs(signal),
    staleTime: 0,
    refetchInterval: (q) => (q.state.status === 'error' || anyJobRunning(q.state.data) ? TIMINGS.jobPollMs : false),
    refetchIntervalInBackground: false,
  });
  const { error, errorUpdatedAt } = query;
  useEffect(() => {
    if (error) console.error('Polling jobs failed', error);
  }, [error, errorUpdatedAt]);
  return query;
}
