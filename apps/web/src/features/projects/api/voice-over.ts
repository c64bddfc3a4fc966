import { Project } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** PUT /api/projects/{id}/voice-over (multipart `voice_over`) → the project, now spoken by the recording. */
export const uploadVoiceOver = async (id: number, file: File): Promise<Project> => {
  const form = new FormData();
  form.append('voice_over', file, file.name);
  return Project.parse(await api.put(`/projects/${id}/voice-over`, form));
};

/** DELETE /api/projects/{id}/voice-over → the project, back to the generated voice. */
export const removeVoiceOver = async (id: number): Promise<Project> =>
  Project.parse(await api.delete(`/projects/${id}/voice-over`));

/** Both calls update the cached project, like every other project edit. */
export function useVoiceOver(id: number) {
  const queryClient = useQueryClient();
  const store = (project: Project) => {
    queryClient.setQueryData(queryKeys.projects.detail(id), project);
    queryClient.setQueryData<Project[]>(queryKeys.projects.list(), (list) =>
      list?.map((p) => (p.id === project.id ? project : p)),
    );
  };
  return {
    upload: useMutation({ mutationFn: (file: File) => uploadVoiceOver(id, file), onSuccess: store }),
    remove: useMutation({ mutationFn: () => removeVoiceOver(id), onSuccess: store }),
  };
}
