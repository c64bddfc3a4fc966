import { GeneratedCharacter } from '@hookreel/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/hooks/select-character/{characterId}?selected=true|false → the character. */
export const selectCharacter = async ({ characterId, selected }: { characterId: number; selected: boolean }) =>
  GeneratedCharacter.parse(
    await api.post(`/hooks/select-character/${characterId}`, undefined, { query: { selected } }),
  );

export function useSelectCharacter() {
  return useMutation({ mutationFn: selectCharacter });
}
