import { ApiKey, CreatedApiKey, type ApiKeyScope } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/api-keys: the user's active keys (never the keys themselves). */
export const listApiKeys = async (): Promise<ApiKey[]> => z.array(ApiKey).parse(await api.get('/api-keys'));

/** POST /api/api-keys {name, scope}: the only answer that carries the whole key. `admin` is for administrators. */
export const createApiKey = async ({ name, scope }: { name: string; scope: ApiKeyScope }): Promise<CreatedApiKey> =>
  CreatedApiKey.parse(await api.post('/api-keys', { name, scope }));

/** DELETE /api/api-keys/{id}: revokes the key at once. */
export const revokeApiKey = async (id: number): Promise<void> => {
  await api.delete(`/api-keys/${id}`);
};

export const useApiKeys = () => useQuery({ queryKey: queryKeys.integrations.apiKeys(), queryFn: listApiKeys });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.integrations.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.integrations.apiKeys() }),
  });
}
