import { CREATOR_FIELDS, Creator, type RenameCreatorRequest } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { previewPending } from '@/components/actor-talking-preview';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const CreatorList = z.array(Creator);

/** GET /api/creators: the user's own creators, newest first. */
export const getCreators = async (): Promise<Creator[]> => CreatorList.parse(await api.get('/creators'));

export function useCreators() {
  return useQuery({
    queryKey: queryKeys.creators.list(),
    queryFn: getCreators,
    // Asked again while a newly added creator's talking preview is being made (decision 207).
    refetchInterval: (query) => ((query.state.data ?? []).some((c) => previewPending(c)) ? 3000 : false),
  });
}

/**
 * POST /api/creators (multipart `photo`, `name`, `consent=true`). Only sent once the consent box is ticked; the
 * server checks the photo's face and answers why when it cannot be animated.
 */
export const addCreator = async (input: { photo: File; name: string }): Promise<Creator> => {
  const form = new FormData();
  form.append(CREATOR_FIELDS.name, input.name);
  form.append(CREATOR_FIELDS.consent, 'true');
  form.append(CREATOR_FIELDS.photo, input.photo, input.photo.name);
  return Creator.parse(await api.post('/creators', form));
};

/** PATCH /api/creators/{id}. */
export const renameCreator = async (input: { id: number } & RenameCreatorRequest): Promise<Creator> =>
  Creator.parse(await api.patch(`/creators/${input.id}`, { name: input.name }));

/** DELETE /api/creators/{id}. */
export const deleteCreator = async (id: number): Promise<void> => {
  await api.delete(`/creators/${id}`);
};

/** A creator is also an actor everywhere actors are chosen: the actor lists are the server's to redo. */
function useCreatorMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.creators.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.avatars.all });
    },
  });
}

export const useAddCreator = () => useCreatorMutation(addCreator);
export const useRenameCreator = () => useCreatorMutation(renameCreator);
export const useDeleteCreator = () => useCreatorMutation(deleteCreator);
