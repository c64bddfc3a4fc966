import { Avatar, type SavedBounds } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** PUT /api/avatars/{id}/bounds with the saved-bounds payload → the avatar. */
export const updateBounds = async (id: number, bounds: SavedBounds): Promise<Avatar> => {
  const data = await api.put(`/avatars/${id}/bounds`, bounds);
  return Avatar.parse(data);
};

export function useUpdateBounds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, bounds }: { id: number; bounds: SavedBounds }) => updateBounds(id, bounds),
    onSuccess: (avatar) => {
      queryClient.setQueryData<Avatar[]>(queryKeys.avatars.list(), (list) =>
        list?.map((a) => (a.id === avatar.id ? avatar : a)),
      );
    },
  });
}
