import { BrandKit, type UpdateBrandKitRequest } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { config } from '@/config';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/brand-kit: the user's kit (the default kit until one is saved). */
export const getBrandKit = async (): Promise<BrandKit> => BrandKit.parse(await api.get('/brand-kit'));

/** PUT /api/brand-kit: everything but the logo. */
export const saveBrandKit = async (kit: UpdateBrandKitRequest): Promise<BrandKit> =>
  BrandKit.parse(await api.put('/brand-kit', kit));

/** PUT /api/brand-kit/logo (multipart `logo`). */
export const uploadLogo = async (file: File): Promise<BrandKit> => {
  const form = new FormData();
  form.append('logo', file);
  return BrandKit.parse(await api.put('/brand-kit/logo', form));
};

export const deleteLogo = async (): Promise<BrandKit> => BrandKit.parse(await api.delete('/brand-kit/logo'));

/** Where the browser loads a caption font from: the very file the engine draws with. */
export const fontFileUrl = (font: string): string => `${config.apiBase}/brand-kit/fonts/${font}`;

export const useBrandKit = () => useQuery({ queryKey: queryKeys.brandKit(), queryFn: getBrandKit });

function useKitMutation<T>(fn: (arg: T) => Promise<BrandKit>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (kit) => queryClient.setQueryData(queryKeys.brandKit(), kit),
  });
}
export const useSaveBrandKit = () => useKitMutation(saveBrandKit);
export const useUploadLogo = () => useKitMutation(uploadLogo);
export const useDeleteLogo = () => useKitMutation<void>(() => deleteLogo());
