import { QueueProductInHandResponse } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/jobs/product-in-hand/{id}/queue-videos → {total_jobs}. */
export const queueVideos = async (projectId: number): Promise<number> => {
  const data = await api.spend(`/jobs/product-in-hand/${projectId}/queue-videos`);
  return QueueProductInHandResponse.parse(data).total_jobs;
};

export function useQueueVideos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: queueVideos,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.jobs.all }),
  });
}
