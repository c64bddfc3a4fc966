import { HookPackSummary, TIMINGS } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

export type { HookPackSummary } from '@hookreel/contracts';
const HookPackSummaries = z.array(HookPackSummary);

/** GET /api/hooks → the user's hook packs (summaries). */
export const getHookPacks = async (signal?: AbortSignal): Promise<HookPackSummary[]> =>
  HookPackSummaries.parse(await api.get('/hooks', { signal }));

/**
 * The list is fetched once when the screen opens (no refetch on focus or remount while cached), and polled while
 * a pack has a video being made realistic, so its card follows the upgrade until it is done.
 */
export function useHookPacks() {
  return useQuery({
    queryKey: hookPackKeys.list(),
    queryFn: ({ signal }) => getHookPacks(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchInterval: (q) =>
      q.state.data?.some((p) => p.realistic_upgrades !== null) ? TIMINGS.hookPackJobPollMs : false,
  });
}
