import { ActorLook } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth/api/get-me';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/avatars/{id}/look: what can be made of this actor once for the user (decision 216), and the prices. */
export const getActorLook = async (avatarId: number, signal?: AbortSignal): Promise<ActorLook> =>
  ActorLook.parse(await api.get(`/avatars/${avatarId}/look`, { signal }));

/** The look, polled every 2 s while one of its steps is being made. */
export function useActorLook(avatarId: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.actorLooks.detail(avatarId),
    queryFn: ({ signal }) => getActorLook(avatarId, signal),
    enabled,
    refetchInterval: (query) => {
      const d = query.state.data;
      return d && (d.photoreal.job_id !== null || d.mouth_stills.job_id !== null) ? 2000 : false;
    },
  });
}

/**
 * POST /api/avatars/{id}/photoreal or /mouth-stills: one paid step, charged once (an Idempotency-Key per click).
 * The look and the actor lists are read again, so the card says Photo once it is made.
 */
export function useMakeActorLook(avatarId: number, step: 'photoreal' | 'mouth-stills') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => ActorLook.parse(await api.spend(`/avatars/${avatarId}/${step}`)),
    onSuccess: (look) => {
      queryClient.setQueryData(queryKeys.actorLooks.detail(avatarId), look);
      void queryClient.invalidateQueries({ queryKey: queryKeys.avatars.all });
      // The price is held now: the sidebar's balance shows it.
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
