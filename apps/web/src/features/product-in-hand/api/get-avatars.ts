import { Avatar, type SizeClass } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const AvatarList = z.array(Avatar);

/** GET /api/avatars/?project_id=&sizes= — actors with this project's merge status. */
export const getAvatars = async (
  params: { projectId: number; sizes?: readonly SizeClass[] },
  signal?: AbortSignal,
): Promise<Avatar[]> => {
  const data = await api.get('/avatars/', {
    signal,
    query: { project_id: params.projectId, sizes: params.sizes && params.sizes.length ? params.sizes : undefined },
  });
  return AvatarList.parse(data);
};

export function useProjectAvatars(projectId: number, sizes?: readonly SizeClass[], enabled = true) {
  return useQuery({
    queryKey: queryKeys.avatars.list({ projectId, sizes }),
    queryFn: ({ signal }) => getAvatars({ projectId, sizes }, signal),
    enabled: enabled && projectId > 0,
    placeholderData: (prev) => prev,
  });
}
