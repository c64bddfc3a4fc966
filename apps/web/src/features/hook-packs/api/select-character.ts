import { GeneratedCharacter } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** POST /api/hooks/select-character/{characterId}?selected=true|false → the character. */
export const selectCharacter = async ({ characterId, selected }: { characterId: number; selected: boolean }) =>
  GeneratedCharacter.parse(
    await api.post(`/hooks/select-character/${characterId}`, undefined, { query: { selected } }),
  );

/**
 * Selects or unselects a pack's character at once on screen. The character list is polled while portraits render,
 * so a poll answered before the server saved the choice could put the old value back and, when it was the last
 * poll, leave it there: the list's fetches in flight are cancelled before the change, and the list is read again
 * once the server has answered, so the screen ends on what the server holds.
 */
export function useSelectCharacter(hookPackId: number | null, onFailed: () => void) {
  const queryClient = useQueryClient();
  const key = hookPackKeys.characters(hookPackId ?? 0);
  const setSelected = (characterId: number, selected: boolean) =>
    queryClient.setQueryData<GeneratedCharacter[]>(key, (old) =>
      old?.map((c) => (c.id === characterId ? { ...c, selected } : c)),
    );
  return useMutation({
    mutationFn: selectCharacter,
    onMutate: async ({ characterId, selected }) => {
      await queryClient.cancelQueries({ queryKey: key });
      setSelected(characterId, selected);
    },
    onError: (_error, { characterId, selected }) => {
      setSelected(characterId, !selected);
      onFailed();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
