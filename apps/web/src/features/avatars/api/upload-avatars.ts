import type { Avatar } from '@hookreel/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { AvatarList } from './get-avatars';

/**
 * POST /api/avatars/upload (multipart, field `files`, multiple, and `consent=true`) → the created avatars. Only
 * called once the uploader has ticked the consent box in the upload dialog.
 */
export const uploadAvatars = async (files: readonly File[]): Promise<Avatar[]> => {
  const form = new FormData();
  form.append('consent', 'true');
  for (const f of files) form.append('files', f, f.name);
  const data = await api.post('/avatars/upload', form);
  return AvatarList.parse(data);
};

/** Created avatars are prepended to the list. */
export function useUploadAvatars() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatars,
    onSuccess: (created) => {
      queryClient.setQueryData<Avatar[]>(queryKeys.avatars.list(), (list) => [...created, ...(list ?? [])]);
      // Lists for a project or ranked for a description (decision 142) are the server's to redo.
      void queryClient.invalidateQueries({
        queryKey: queryKeys.avatars.all,
        predicate: (q) => q.queryKey[2] !== null || (q.queryKey[4] ?? null) !== null,
      });
    },
  });
}
