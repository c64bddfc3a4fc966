import { QueueJobResponse } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/jobs/{projectId}/queue → {id} of the new job. */
export const queueJob = async (projectId: number): Promise<number> => {
  const data = await api.spend(`/jobs/${projectId}/queue`);
  return QueueJobResponse.parse(data).id;
};

export function useQueueJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: queueJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.jobs.all }),
  });
}
