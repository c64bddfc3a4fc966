/* Shared by the project editor and the product-in-hand merge screen. */
import { Project, type UpdateProjectRequest } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** PUT /api/projects/{id} with a partial body (name, script, language, accent) → the project. */
export const updateProject = async (id: number, patch: UpdateProjectRequest): Promise<Project> => {
  const data = await api.put(`/projects/${id}`, patch);
  return Project.parse(data);
};

export function useUpdateProject(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: UpdateProjectRequest) => updateProject(id, patch),
    onSuccess: (project) => {
      queryClient.setQueryData(queryKeys.projects.detail(id), project);
      queryClient.setQueryData<Project[]>(queryKeys.projects.list(), (list) =>
        list?.map((p) => (p.id === project.id ? project : p)),
      );
    },
  });
}
