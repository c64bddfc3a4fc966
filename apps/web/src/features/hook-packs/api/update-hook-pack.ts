import { HookPack, UpdateHookPackRequest } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

export type UpdateHookPackInput = z.input<typeof UpdateHookPackRequest>;

/** PUT /api/hooks/{id} {status?, message?, language?, accent?, product_details?} → the pack. */
export const updateHookPack = async ({ id, ...patch }: UpdateHookPackInput & { id: number }): Promise<HookPack> =>
  HookPack.parse(await api.put(`/hooks/${id}`, UpdateHookPackRequest.parse(patch)));

export function useUpdateHookPack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHookPack,
    onSuccess: (pack) => {
      queryClient.setQueryData(hookPackKeys.detail(pack.id), pack);
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.list() });
    },
  });
}
