import { Project } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/**
 * A sound file kept on a project (its music bed, its own voice-over): PUT /api/projects/{id}/{path} with the
 * file in the multipart field `field`, DELETE the same address to remove it. Both answer the updated project,
 * which replaces the cached one like every other project edit.
 */
export function useProjectAudio(id: number, { path, field }: { path: string; field: string }) {
  const queryClient = useQueryClient();
  const store = (project: Project) => {
    queryClient.setQueryData(queryKeys.projects.detail(id), project);
    queryClient.setQueryData<Project[]>(queryKeys.projects.list(), (list) =>
      list?.map((p) => (p.id === project.id ? project : p)),
    );
  };
  const upload = async (file: File): Promise<Project> => {
    const form = new FormData();
    form.append(field, file, file.name);
    return Project.parse(await api.put(`/projects/${id}/${path}`, form));
  };
  const remove = async (): Promise<Project> => Project.parse(await api.delete(`/projects/${id}/${path}`));
  return {
    upload: useMutation({ mutationFn: upload, onSuccess: store }),
    remove: useMutation({ mutationFn: remove, onSuccess: store }),
  };
}
