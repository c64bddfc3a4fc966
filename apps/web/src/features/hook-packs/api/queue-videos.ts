import { QueueHookPackVideosRequest, QueueHookPackVideosResponse } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { hookPackKeys } from './keys';

export type HookVariantInput = NonNullable<z.input<typeof QueueHookPackVideosRequest>['variants']>[number];
export type HookMatrixInput = NonNullable<z.input<typeof QueueHookPackVideosRequest>['matrix']>;

/**
 * POST /api/jobs/hook-pack/{id}/queue-videos ({variants} or {matrix}; with neither the server writes the 12
 * default pairs) → {hook_pack_id, total_jobs}. 402 when the credits do not cover every video.
 */
export const queueHookPackVideos = async ({
  hookPackId,
  variants,
  matrix,
}: {
  hookPackId: number;
  variants?: HookVariantInput[];
  matrix?: HookMatrixInput;
}) =>
  QueueHookPackVideosResponse.parse(
    await api.spend(
      `/jobs/hook-pack/${hookPackId}/queue-videos`,
      matrix
        ? QueueHookPackVideosRequest.parse({ matrix })
        : variants
          ? QueueHookPackVideosRequest.parse({ variants })
          : {},
    ),
  );

export function useQueueHookPackVideos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: queueHookPackVideos,
    onSuccess: (_r, { hookPackId }) => {
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.jobs(hookPackId) });
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) });
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.list() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.jobs.all });
    },
  });
}
