import { isTerminalJobStatus, Job, realisticUpgradeUnderway, TIMINGS } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

const Jobs = z.array(Job);

/** GET /api/jobs/hook-pack/{id}/jobs → the pack's video jobs, in variant order. */
export const getPackJobs = async (hookPackId: number, signal?: AbortSignal): Promise<Job[]> =>
  Jobs.parse(await api.get(`/jobs/hook-pack/${hookPackId}/jobs`, { signal }));

export const allJobsDone = (jobs: readonly Pick<Job, 'status'>[]) =>
  jobs.length > 0 && jobs.every((j) => isTerminalJobStatus(j.status));

/**
 * The pack's video jobs, polled every second (TIMINGS.hookPackJobPollMs) until all are completed or failed and no
 * "Make realistic" of one of them is still waiting or running (the realistic video then takes the draft's place).
 * `poll` false reads once; `waitForJobs` keeps polling while the list is still empty (just queued).
 */
export function usePackJobs(hookPackId: number | null, options: { poll?: boolean; waitForJobs?: boolean } = {}) {
  const { poll = true, waitForJobs = false } = options;
  return useQuery({
    queryKey: hookPackKeys.jobs(hookPackId ?? 0),
    queryFn: ({ signal }) => getPackJobs(hookPackId as number, signal),
    enabled: hookPackId !== null && hookPackId > 0,
    staleTime: 0,
    refetchInterval: (q) => {
      if (!poll) return false;
      const jobs = q.state.data;
      if (!jobs) return q.state.status === 'error' ? false : TIMINGS.hookPackJobPollMs;
      if (jobs.length === 0) return waitForJobs ? TIMINGS.hookPackJobPollMs : false;
      return allJobsDone(jobs) && !jobs.some(realisticUpgradeUnderway) ? false : TIMINGS.hookPackJobPollMs;
    },
  });
}
