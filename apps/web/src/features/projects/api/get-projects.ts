import { Project } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const ProjectList = z.array(Project);

/** GET /api/projects/ — the user's projects. */
export const getProjects = async (signal?: AbortSignal): Promise<Project[]> => {
  const data = await api.get('/projects/', { signal });
  return ProjectList.parse(data);
};

export function useProjects() {
  return useQuery({ queryKey: queryKeys.projects.list(), queryFn: ({ signal }) => getProjects(signal) });
}
