import { HookLinesResponse as HookLines } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** GET /api/hooks/{id}/hook-lines?hook= → the 12 lines and their angles (the hook first; a model writes the rest when configured). */
export const getHookLines = async (hookPackId: number, hook: string, signal?: AbortSignal): Promise<HookLines> =>
  HookLines.parse(await api.get(`/hooks/${hookPackId}/hook-lines?hook=${encodeURIComponent(hook)}`, { signal }));

/** The server's lines for this hook; while they load (or if the call fails) the step shows the local rules. */
export function useHookLines(hookPackId: number, hook: string) {
  return useQuery({
    queryKey: hookPackKeys.hookLines(hookPackId, hook),
    queryFn: ({ signal }) => getHookLines(hookPackId, hook, signal),
    enabled: hookPackId > 0 && hook.trim().length > 0,
    staleTime: Infinity,
    retry: false,
  });
}
