import { GeneratePreviewJson, PreviewCharacter } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

const PreviewCharacters = z.array(PreviewCharacter);

/**
 * POST /api/hooks/generate-preview (JSON {hook_pack_id, character_ids}) → the previews, placed automatically;
 * their images render in the background (url null until done). 402 when the credits do not cover them.
 */
export const generatePreviews = async ({ hookPackId, characterIds }: { hookPackId: number; characterIds: number[] }) =>
  PreviewCharacters.parse(
    await api.spend(
      '/hooks/generate-preview',
      GeneratePreviewJson.parse({ hook_pack_id: hookPackId, character_ids: characterIds }),
    ),
  );

export function useGeneratePreviews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generatePreviews,
    onSuccess: (_previews, { hookPackId }) =>
      queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) }),
  });
}
