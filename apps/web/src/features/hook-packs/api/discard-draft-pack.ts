import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** DELETE /api/hooks/{id}: discards a draft pack that never got a product (the server refuses anything else). */
export const discardDraftPack = async (id: number): Promise<void> => {
  await api.delete(`/hooks/${id}`);
};

export function useDiscardDraftPack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: discardDraftPack,
    onSettled: (_data, _error, id) => {
      queryClient.removeQueries({ queryKey: hookPackKeys.detail(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.list() });
    },
  });
}
