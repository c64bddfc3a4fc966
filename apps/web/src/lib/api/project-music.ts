import { Project } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** PUT /api/projects/{id}/music (multipart `music`) → the project with its music bed. */
export const uploadProjectMusic = async (id: number, file: File): Promise<Project> => {
  const form = new FormData();
  form.append('music', file, file.name);
  return Project.parse(await api.put(`/projects/${id}/music`, form));
};

/** DELETE /api/projects/{id}/music → the project without a music bed. */
export const removeProjectMusic = async (id: number): Promise<Project> =>
  Project.parse(await api.delete(`/projects/${id}/music`));

/** Both calls update the cached project, like every other project edit. */
export function useProjectMusic(id: number) {
  const queryClient = useQueryClient();
  const store = (project: Project) => {
    queryClient.setQueryData(queryKeys.projects.detail(id), project);
    queryClient.setQueryData<Project[]>(queryKeys.projects.list(), (list) =>
      list?.map((p) => (p.id === project.id ? project : p)),
    );
  };
  return {
    upload: useMutation({ mutationFn: (file: File) => uploadProjectMusic(id, file), onSuccess: store }),
    remove: useMutation({ mutationFn: () => removeProjectMusic(id), onSuccess: store }),
  };
}
