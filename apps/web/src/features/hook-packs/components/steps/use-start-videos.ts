import { INSUFFICIENT_CREDITS, MESSAGES } from '@hookreel/contracts';
import { toast } from 'sonner';
import { errorDetail, isApiError } from '@/lib/api-client';
import { type HookMatrixInput, type HookVariantInput, useQueueHookPackVideos } from '../../api/queue-videos';
import { useCreditsSpent, usePaidErrorToast } from '../../lib/use-paid-error';
import type { PackVideoStyle } from '../pack-video-style';

/**
 * Queues a pack's videos from the Generate step, in its list or its matrix mode. A style, quality or speed pick
 * still being saved is part of what the videos render with (and are priced at), so it is saved first. A 409 means
 * the videos are already on their way (another tab): say so and go on as if started. `onRefused` shows a 422 in
 * the step; without it a 422 is an ordinary failure.
 */
export function useStartPackVideos({
  packId,
  style,
  onStarted,
  onRefused,
}: {
  packId: number;
  style: PackVideoStyle;
  onStarted: () => void;
  onRefused?: (detail: string) => void;
}) {
  const queue = useQueueHookPackVideos();
  const paidError = usePaidErrorToast();
  const creditsSpent = useCreditsSpent();
  const start = (request: { variants: HookVariantInput[] } | { matrix: HookMatrixInput }) =>
    style
      .saveUnsaved()
      .then(() => queue.mutateAsync({ hookPackId: packId, ...request }))
      .then(
        () => {
          creditsSpent();
          onStarted();
        },
        (e: unknown) => {
          if (isApiError(e) && e.status === 409) {
            toast.info(errorDetail(e, MESSAGES.hookPacks.videosFailed));
            onStarted();
            return;
          }
          if (onRefused && isApiError(e) && e.status === 422) {
            onRefused(errorDetail(e, MESSAGES.hookPacks.videosFailed));
            return;
          }
          paidError(e, INSUFFICIENT_CREDITS.videos, MESSAGES.hookPacks.videosFailed);
        },
      );
  return { start, pending: queue.isPending };
}
