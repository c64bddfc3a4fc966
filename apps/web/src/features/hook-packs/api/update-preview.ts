import { PreviewCharacter, UpdatePreviewRequest } from '@hookreel/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Approving sets status accepted, unapproving sets rejected (docs/product.md#states). */
export const approvalPatch = (approved: boolean) => ({
  approved,
  status: approved ? ('accepted' as const) : ('rejected' as const),
});

/** PUT /api/hooks/preview/{id} {approved, status} → the preview. */
export const updatePreview = async ({ previewId, approved }: { previewId: number; approved: boolean }) =>
  PreviewCharacter.parse(
    await api.put(`/hooks/preview/${previewId}`, UpdatePreviewRequest.parse(approvalPatch(approved))),
  );

export function useUpdatePreview() {
  return useMutation({ mutationFn: updatePreview });
}
