import { Creator, GeneratedCharacter } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { previewPending } from '@/components/actor-talking-preview';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { hookPackKeys } from './keys';

const CreatorList = z.array(Creator);

/** GET /api/creators: the user's own creators (only theirs), which a pack can cast beside its drawn characters. */
export function useOwnCreators() {
  return useQuery({
    queryKey: queryKeys.creators.list(),
    queryFn: async () => CreatorList.parse(await api.get('/creators')),
    refetchInterval: (query) => ((query.state.data ?? []).some((c) => previewPending(c)) ? 3000 : false),
  });
}

/** POST /api/hooks/{id}/creators: one of the user's creators joins the pack as a selected photo character. */
export const addCreatorToPack = async ({ hookPackId, creatorId }: { hookPackId: number; creatorId: number }) =>
  GeneratedCharacter.parse(await api.post(`/hooks/${hookPackId}/creators`, { creator_id: creatorId }));

export function useAddCreatorToPack(hookPackId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addCreatorToPack,
    onSuccess: (character) => {
      queryClient.setQueryData<GeneratedCharacter[]>(hookPackKeys.characters(hookPackId ?? 0), (old) =>
        old ? [...old.filter((c) => c.id !== character.id), character] : old,
      );
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.characters(hookPackId ?? 0) });
      if (hookPackId) void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) });
    },
  });
}
