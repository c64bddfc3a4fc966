import { CreateHookPackRequest, HookPack } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

export type CreateHookPackInput = z.input<typeof CreateHookPackRequest>;

/** POST /api/hooks {name?, language, accent} → the new pack (status 'created'). */
export const createHookPack = async (input: CreateHookPackInput): Promise<HookPack> =>
  HookPack.parse(await api.post('/hooks', CreateHookPackRequest.parse(input)));

export function useCreateHookPack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createHookPack,
    onSuccess: (pack) => {
      queryClient.setQueryData(hookPackKeys.detail(pack.id), pack);
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.list() });
    },
  });
}
