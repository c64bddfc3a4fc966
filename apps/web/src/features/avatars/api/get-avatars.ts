import { Avatar } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const AvatarList = z.array(Avatar);

/** GET /api/avatars/ — the whole library. */
export const getAvatars = async (signal?: AbortSignal): Promise<Avatar[]> => {
  const data = await api.get('/avatars/', { signal });
  return AvatarList.parse(data);
};

export function useAvatars() {
  return useQuery({ queryKey: queryKeys.avatars.list(), queryFn: ({ signal }) => getAvatars(signal) });
}
