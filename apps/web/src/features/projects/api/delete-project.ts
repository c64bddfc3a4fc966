import type { Project } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /api/projects/{id}. */
export const deleteProject = async (id: number): Promise<void> => {
  await api.delete(`/projects/${id}`);
};

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (_d, id) => {
      queryClient.setQueryData<Project[]>(queryKeys.projects.list(), (list) => list?.filter((p) => p.id !== id));
      queryClient.removeQueries({ queryKey: queryKeys.projects.detail(id), exact: true });
    },
  });
}
