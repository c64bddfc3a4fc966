import { HookPack } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** POST /api/hooks/{id}/accept-cutout → the pack: use a cut-out that needs review as it is (decision 214). */
export const acceptCutout = async (id: number): Promise<HookPack> =>
  HookPack.parse(await api.post(`/hooks/${id}/accept-cutout`));

export function useAcceptCutout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptCutout,
    onSuccess: (pack) => queryClient.setQueryData(hookPackKeys.detail(pack.id), pack),
  });
}
