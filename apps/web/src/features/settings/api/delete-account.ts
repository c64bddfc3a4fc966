import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/user/me — deletes the signed-in account. */
export const deleteAccount = async (): Promise<void> => {
  await api.delete('/user/me');
};

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
