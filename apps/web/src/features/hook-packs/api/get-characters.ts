import { GeneratedCharacter, TIMINGS } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

const GeneratedCharacters = z.array(GeneratedCharacter);

/** GET /api/hooks/characters/{hookPackId}?selected= → the pack's generated characters (or only the selected). */
export const getCharacters = async (
  hookPackId: number,
  selected = false,
  signal?: AbortSignal,
): Promise<GeneratedCharacter[]> =>
  GeneratedCharacters.parse(await api.get(`/hooks/characters/${hookPackId}`, { query: { selected }, signal }));

/** A character whose portrait is still rendering. */
export const isCharacterPending = (c: { url: string }) => !c.url;

/** The pack's characters, polled every second while any is still pending. */
export function useCharacters(hookPackId: number | null, options: { poll?: boolean } = {}) {
  const poll = options.poll ?? true;
  return useQuery({
    queryKey: hookPackKeys.characters(hookPackId ?? 0),
    queryFn: ({ signal }) => getCharacters(hookPackId as number, false, signal),
    enabled: hookPackId !== null && hookPackId > 0,
    staleTime: 0,
    refetchInterval: (q) => (poll && q.state.data?.some(isCharacterPending) ? TIMINGS.characterPollMs : false),
  });
}
