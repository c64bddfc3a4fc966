import type { Avatar } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /api/avatars/{id}. */
export const deleteAvatar = async (id: number): Promise<void> => {
  await api.delete(`/avatars/${id}`);
};

export function useDeleteAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAvatar,
    onSuccess: (_d, id) => {
      queryClient.setQueryData<Avatar[]>(queryKeys.avatars.list(), (list) => list?.filter((a) => a.id !== id));
      // The picker's lists ranked for a description (decision 142) must not offer the deleted avatar.
      void queryClient.invalidateQueries({
        queryKey: queryKeys.avatars.all,
        predicate: (q) => (q.queryKey[4] ?? null) !== null,
      });
    },
  });
}
