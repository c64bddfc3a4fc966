import { Avatar } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const AvatarList = z.array(Avatar);

/**
 * GET /api/avatars/ — the actor catalogue, for the character picker. With a character description the server
 * lists the catalogue actors best match first (decision 142).
 */
export const getAvatars = async (signal?: AbortSignal, description?: string): Promise<Avatar[]> => {
  const data = await api.get('/avatars/', { signal, query: description ? { description } : undefined });
  return AvatarList.parse(data);
};

export function useAvatars(enabled = true, description?: string) {
  return useQuery({
    queryKey: queryKeys.avatars.list(description ? { description } : {}),
    queryFn: ({ signal }) => getAvatars(signal, description),
    enabled,
  });
}
