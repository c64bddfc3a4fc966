import { type HookPack, PreviewCharacter, UpdatePreviewRequest } from '@hookreel/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

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

/** Changes one preview of the pack held in the query cache (what the screen shows until the pack is read again). */
export const patchCachedPreview = (
  queryClient: QueryClient,
  hookPackId: number,
  previewId: number,
  patch: Partial<PreviewCharacter>,
) =>
  queryClient.setQueryData<HookPack>(hookPackKeys.detail(hookPackId), (old) =>
    old
      ? {
          ...old,
          preview_characters: old.preview_characters.map((p) => (p.id === previewId ? { ...p, ...patch } : p)),
        }
      : old,
  );

/**
 * Approves or unapproves a preview at once on screen. The pack is polled while previews render, so, as with a
 * character's selection (select-character.ts), its fetches in flight are cancelled before the change and it is
 * read again once the server has answered.
 */
export function useUpdatePreview(hookPackId: number | null, onFailed: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const key = hookPackKeys.detail(hookPackId ?? 0);
  const setPreview = (id: number, patch: Partial<PreviewCharacter>) =>
    patchCachedPreview(queryClient, hookPackId ?? 0, id, patch);
  return useMutation({
    mutationFn: updatePreview,
    onMutate: async ({ previewId, approved }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<HookPack>(key)?.preview_characters.find((p) => p.id === previewId);
      setPreview(previewId, approvalPatch(approved));
      return { before: before && { approved: before.approved, status: before.status } };
    },
    onSuccess: (saved) => setPreview(saved.id, saved),
    onError: (error, { previewId }, context) => {
      if (context?.before) setPreview(previewId, context.before);
      onFailed(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
