import { NotifyResponse, type User } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';

/** PUT /api/user/me/notify {notify} → {notify}. */
export const updateNotify = async (notify: boolean): Promise<boolean> => {
  const data = await api.put('/user/me/notify', { notify });
  return NotifyResponse.parse(data).notify;
};

/** Sets or clears "notify me" (settings); the current user shows the new value at once. */
export function useUpdateNotify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotify,
    onSuccess: (notify) => {
      queryClient.setQueryData<User>(meQueryKey, (user) => (user ? { ...user, notify } : user));
    },
  });
}

/** Sets notify and then refreshes the current user (the jobs page's banner, docs/product.md#jobs). */
export function useEnableNotify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => updateNotify(true),
    onSuccess: async (notify) => {
      queryClient.setQueryData<User>(meQueryKey, (user) => (user ? { ...user, notify } : user));
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
