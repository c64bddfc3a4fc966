import { QueueJobResponse } from '@hookreel/contracts';
import { api } from '@/lib/api-client';
import { useJobsMutation } from '@/lib/api/jobs-mutation';

/** POST /api/jobs/{id}/make-realistic → {id} of the new Realistic job (it holds only the price difference). */
export const makeRealistic = async (jobId: number): Promise<number> => {
  const data = await api.spend(`/jobs/${jobId}/make-realistic`);
  return QueueJobResponse.parse(data).id;
};

export const useMakeRealistic = () => useJobsMutation(makeRealistic);
