import { QueueJobResponse } from '@hookreel/contracts';
import { api } from '@/lib/api-client';
import { useJobsMutation } from '@/lib/api/jobs-mutation';

/** POST /api/jobs/{projectId}/queue → {id} of the new job. */
export const queueJob = async (projectId: number): Promise<number> => {
  const data = await api.spend(`/jobs/${projectId}/queue`);
  return QueueJobResponse.parse(data).id;
};

export const useQueueJob = () => useJobsMutation(queueJob);
