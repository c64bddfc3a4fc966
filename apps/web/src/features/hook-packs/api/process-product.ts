import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const ProcessProductResponse = z.object({ job_id: z.number().int() });

/** POST /api/hooks/process-step1?hook_pack_id= → {job_id}: background cut-out and analysis of the product. */
export const processProduct = async (hookPackId: number): Promise<number> =>
  ProcessProductResponse.parse(
    await api.post('/hooks/process-step1', undefined, { query: { hook_pack_id: hookPackId } }),
  ).job_id;

export function useProcessProduct() {
  return useMutation({ mutationFn: processProduct });
}
