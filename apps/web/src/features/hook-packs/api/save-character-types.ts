import { CharacterType, CharacterTypesBatch } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

const CharacterTypes = z.array(CharacterType);

/** POST /api/hooks/character-types/batch?hook_pack_id= [{description, order_index}] → the saved types with ids. */
export const saveCharacterTypes = async ({
  hookPackId,
  descriptions,
}: {
  hookPackId: number;
  descriptions: string[];
}): Promise<CharacterType[]> => {
  const body = CharacterTypesBatch.parse(
    descriptions.map((description, order_index) => ({ description, order_index })),
  );
  return CharacterTypes.parse(
    await api.post('/hooks/character-types/batch', body, { query: { hook_pack_id: hookPackId } }),
  );
};

export function useSaveCharacterTypes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCharacterTypes,
    onSuccess: (_types, { hookPackId }) => queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) }),
  });
}
