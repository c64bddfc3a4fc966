import { TalkingPreview } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** How often a preview being made is asked about again, and for how long at most. */
const POLL_MS = 3_000;
const MAX_ASKS = (3 * 60_000) / POLL_MS;

/**
 * POST /api/avatars/{id}/talking-preview once `wanted` (the card was pointed at or focused): the server renders the
 * actor's preview the first time anyone asks (decision 219) and answers where it is once made; asking again
 * queues nothing more, so it is polled until ready.
 */
export function useTalkingPreview(avatarId: number | undefined, wanted: boolean) {
  return useQuery({
    queryKey: queryKeys.avatars.talkingPreview(avatarId ?? 0),
    queryFn: async () => TalkingPreview.parse(await api.post(`/avatars/${avatarId}/talking-preview`)),
    enabled: wanted && avatarId !== undefined,
    staleTime: Infinity,
    retry: false,
    // Asked again every few seconds while it is made, for a few minutes at most (a failed render stays a picture).
    refetchInterval: (query) =>
      query.state.data?.status === 'rendering' && query.state.dataUpdateCount < MAX_ASKS ? POLL_MS : false,
  });
}
