import { PreviewCharacter } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

export type RegenerateReason = 'product' | 'person';

/** POST /api/hooks/preview/{id}/regenerate?reason=product|person → the preview (rendering again, unapproved). */
export const regeneratePreview = async ({
  previewId,
  reason,
}: {
  previewId: number;
  reason: RegenerateReason;
  hookPackId: number;
}) =>
  PreviewCharacter.parse(await api.spend(`/hooks/preview/${previewId}/regenerate`, undefined, { query: { reason } }));

export function useRegeneratePreview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regeneratePreview,
    onSuccess: (_p, { hookPackId }) => {
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) });
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.characters(hookPackId) });
    },
  });
}
