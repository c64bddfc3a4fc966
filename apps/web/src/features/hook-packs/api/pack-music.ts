import { HookPack } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

/** PUT /api/hooks/{id}/music (multipart `music`) → the pack with its music bed. */
export const uploadPackMusic = async (id: number, file: File): Promise<HookPack> => {
  const form = new FormData();
  form.append('music', file, file.name);
  return HookPack.parse(await api.put(`/hooks/${id}/music`, form));
};

/** DELETE /api/hooks/{id}/music → the pack without a music bed. */
export const removePackMusic = async (id: number): Promise<HookPack> =>
  HookPack.parse(await api.delete(`/hooks/${id}/music`));

/** Both calls update the cached pack, as every other pack edit does. */
export function usePackMusic(id: number) {
  const queryClient = useQueryClient();
  const store = (pack: HookPack) => queryClient.setQueryData(hookPackKeys.detail(pack.id), pack);
  return {
    upload: useMutation({ mutationFn: (file: File) => uploadPackMusic(id, file), onSuccess: store }),
    remove: useMutation({ mutationFn: () => removePackMusic(id), onSuccess: store }),
  };
}
