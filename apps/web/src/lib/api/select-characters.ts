import { Project } from '@hookreel/contracts';
/* Shared by the project editor and product in hand: both choose a project's actors. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/projects/{id}/selected-characters {character_ids} → the project (the selection replaces the old one). */
export const selectCharacters = async (id: number, characterIds: number[]): Promise<Project> => {
  const data = await api.post(`/projects/${id}/selected-characters`, { character_ids: characterIds });
  return Project.parse(data);
};

export function useSelectCharacters(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (characterIds: number[]) => selectCharacters(id, characterIds),
    onSuccess: (project) => queryClient.setQueryData(queryKeys.projects.detail(id), project),
  });
}
