import { isTerminalJobStatus, Job, TIMINGS } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** GET /api/jobs/{id}: one background job (product analysis, character rendering). */
export const getJob = async (id: number, signal?: AbortSignal): Promise<Job> =>
  Job.parse(await api.get(`/jobs/${id}`, { signal }));

/** A job polled every second until it is completed or failed. */
export function usePolledJob(id: number | null) {
  return useQuery({
    queryKey: hookPackKeys.job(id ?? 0),
    queryFn: ({ signal }) => getJob(id as number, signal),
    enabled: id !== null && id > 0,
    staleTime: 0,
    refetchInterval: (q) => {
      const job = q.state.data;
      if (!job) return q.state.status === 'error' ? false : TIMINGS.hookPackJobPollMs;
      return isTerminalJobStatus(job.status) ? false : TIMINGS.hookPackJobPollMs;
    },
  });
}
