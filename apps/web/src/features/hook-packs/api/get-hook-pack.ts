import { HookPack } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** GET /api/hooks/{id} → the pack with its character types, generated characters and previews. */
export const getHookPack = async (id: number, signal?: AbortSignal): Promise<HookPack> =>
  HookPack.parse(await api.get(`/hooks/${id}`, { signal }));

/** A preview still rendering: no image and no error yet. */
export const isPreviewPending = (p: { url: string | null; errors: string | null }) => !p.url && !p.errors;

/**
 * One pack. With `pollPreviews`, it is re-read every second while any preview is still rendering
 * (previews are composited by a background job).
 */
export function useHookPack(id: number | null, options: { pollPreviews?: boolean } = {}) {
  return useQuery({
    queryKey: hookPackKeys.detail(id ?? 0),
    queryFn: ({ signal }) => getHookPack(id as number, signal),
    enabled: id !== null && id > 0,
    staleTime: 0,
    refetchInterval: (q) =>
      options.pollPreviews && q.state.data?.preview_characters.some(isPreviewPending) ? 1000 : false,
  });
}
