import { NotifyResponse, type User } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';

/** PUT /api/user/me/notify {notify} → {notify}. */
export const updateNotify = async (notify: boolean): Promise<boolean> => {
  const data = await api.put('/user/me/notify', { notify });
  return NotifyResponse.parse(data).notify;
};

export function useUpdateNotify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotify,
    onSuccess: (notify) => {
      queryClient.setQueryData<User>(meQueryKey, (user) => (user ? { ...user, notify } : user));
    },
  });
}
