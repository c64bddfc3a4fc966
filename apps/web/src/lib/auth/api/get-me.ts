import { User } from '@hookreel/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/user/me — the current user. */
export const getMe = async (signal?: AbortSignal): Promise<User> => {
  const data = await api.get('/user/me', { signal });
  return User.parse(data);
};

export const meQueryKey = ['user', 'me'] as const;

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 60_000,
  });
