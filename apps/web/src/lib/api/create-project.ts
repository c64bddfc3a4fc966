/* Shared by every screen that creates a project (projects, new video, product in hand). */
import { CreateProjectResponse } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface CreateProjectInput {
  name: string;
  file?: File | null;
}

/** POST /api/projects/ (multipart: name, optional file) → {id}. */
export const createProject = async ({ name, file }: CreateProjectInput): Promise<number> => {
  const form = new FormData();
  form.append('name', name);
  if (file) form.append('file', file);
  const data = await api.post('/projects/', form);
  return CreateProjectResponse.parse(data).id;
};

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
  });
}
