import type { Job } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /api/jobs/{id}. */
export const deleteJob = async (id: number): Promise<void> => {
  await api.delete(`/jobs/${id}`);
};

export function useDeleteJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteJob,
    onMutate: (id) => queryClient.cancelQueries({ queryKey: queryKeys.jobs.detail(id), exact: true }),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Job[]>(queryKeys.jobs.list(), (jobs) => jobs?.filter((j) => j.id !== id));
      queryClient.removeQueries({ queryKey: queryKeys.jobs.detail(id), exact: true });
    },
  });
}
