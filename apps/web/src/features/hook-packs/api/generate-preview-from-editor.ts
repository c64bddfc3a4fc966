import { type MaskPlacement, PreviewCharacter } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

const PreviewCharacters = z.array(PreviewCharacter);

export interface EditorPreviewInput {
  hookPackId: number;
  generatedCharacterId: number;
  /** The mask PNG (named mask.png). */
  mask: File;
  placement: MaskPlacement;
}

/**
 * POST /api/hooks/generate-preview (multipart {hook_pack_id, generated_character_id, mask_image, position_x,
 * position_y, scale, rotation}) → the preview placed as in the editor.
 */
export const generatePreviewFromEditor = async ({
  hookPackId,
  generatedCharacterId,
  mask,
  placement,
}: EditorPreviewInput) => {
  const form = new FormData();
  form.append('hook_pack_id', String(hookPackId));
  form.append('generated_character_id', String(generatedCharacterId));
  form.append('mask_image', mask, mask.name);
  form.append('position_x', String(placement.position_x));
  form.append('position_y', String(placement.position_y));
  form.append('scale', String(placement.scale));
  form.append('rotation', String(placement.rotation));
  return PreviewCharacters.parse(await api.spend('/hooks/generate-preview', form));
};

export function useGeneratePreviewFromEditor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generatePreviewFromEditor,
    onSuccess: (_previews, { hookPackId }) =>
      queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) }),
  });
}
