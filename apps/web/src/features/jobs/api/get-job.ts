import { isTerminalJobStatus, Job, realisticUpgradeUnderway, TIMINGS } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/jobs/{id}. */
export const getJob = async (id: number, signal?: AbortSignal): Promise<Job> => {
  const data = await api.get(`/jobs/${id}`, { signal });
  return Job.parse(data);
};

/**
 * One job, polled every TIMINGS.jobPollMs until it is completed or failed and its "Make realistic" (a pack
 * video's) is not waiting or running; poll errors are logged. `active: false`
 * stops polling at once (the job is being deleted: one more poll would only fetch a 404).
 */
export function useJob(id: number, { active = true }: { active?: boolean } = {}) {
  const query = useQuery({
    queryKey: queryKeys.jobs.detail(id),
    queryFn: ({ signal }) => getJob(id, signal),
    enabled: active && Number.isInteger(id) && id > 0,
    staleTime: 0,
    refetchInterval: (q) => {
      const job = q.state.data;
      if (!job) return q.state.status === 'error' ? false : TIMINGS.jobPollMs;
      return isTerminalJobStatus(job.status) && !realisticUpgradeUnderway(job) ? false : TIMINGS.jobPollMs;
    },
  });
  const { error, errorUpdatedAt } = query;
  useEffect(() => {
    if (error) console.error('Polling job failed', error);
  }, [error, errorUpdatedAt]);
  return query;
}
