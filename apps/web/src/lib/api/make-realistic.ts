import { QueueJobResponse } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/jobs/{id}/make-realistic → {id} of the new Realistic job (it holds only the price difference). */
export const makeRealistic = async (jobId: number): Promise<number> => {
  const data = await api.spend(`/jobs/${jobId}/make-realistic`);
  return QueueJobResponse.parse(data).id;
};

export function useMakeRealistic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeRealistic,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.jobs.all }),
  });
}
