/* Shared by the project editor and product in hand (select actor, merge): both read one project. */
import { Project } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/projects/{id}. */
export const getProject = async (id: number, signal?: AbortSignal): Promise<Project> => {
  const data = await api.get(`/projects/${id}`, { signal });
  return Project.parse(data);
};

export function useProject(id: number) {
  return useQuery({
    queryKey: queryKeys.projects.detail(id),
    queryFn: ({ signal }) => getProject(id, signal),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
  });
}
