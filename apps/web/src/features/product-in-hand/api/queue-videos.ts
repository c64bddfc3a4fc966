import { QueueProductInHandResponse } from '@hookreel/contracts';
import { api } from '@/lib/api-client';
import { useJobsMutation } from '@/lib/api/jobs-mutation';

/** POST /api/jobs/product-in-hand/{id}/queue-videos → {total_jobs}. */
export const queueVideos = async (projectId: number): Promise<number> => {
  const data = await api.spend(`/jobs/product-in-hand/${projectId}/queue-videos`);
  return QueueProductInHandResponse.parse(data).total_jobs;
};

export const useQueueVideos = () => useJobsMutation(queueVideos);
