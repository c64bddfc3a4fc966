import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { hookPackKeys } from './keys';

const UploadProductResponse = z.object({ product_url: z.string() });

/** POST /api/hooks/upload-product (multipart hook_pack_id, product_image) → {product_url} (a storage key). */
export const uploadProduct = async ({ hookPackId, file }: { hookPackId: number; file: File }): Promise<string> => {
  const form = new FormData();
  form.append('hook_pack_id', String(hookPackId));
  form.append('product_image', file);
  return UploadProductResponse.parse(await api.post('/hooks/upload-product', form)).product_url;
};

export function useUploadProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadProduct,
    onSuccess: (_url, { hookPackId }) => {
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(hookPackId) });
      void queryClient.invalidateQueries({ queryKey: hookPackKeys.list() });
    },
  });
}
