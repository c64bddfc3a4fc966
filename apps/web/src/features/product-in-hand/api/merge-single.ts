import { CANVAS, type MaskPlacement, MergeSingleResponse } from '@hookreel/contracts';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

export interface MergeSingleInput {
  projectId: number;
  characterId: number;
  placement: MaskPlacement;
  mask: Blob;
}

/** POST /api/merge/single (multipart: project_id, character_id, mask_data JSON, mask_file mask.png) → {job_id, status}. */
export const mergeSingle = async (input: MergeSingleInput): Promise<z.infer<typeof MergeSingleResponse>> => {
  const form = new FormData();
  form.append('project_id', String(input.projectId));
  form.append('character_id', String(input.characterId));
  form.append('mask_data', JSON.stringify(input.placement));
  form.append('mask_file', input.mask, CANVAS.maskFileName);
  const data = await api.spend('/merge/single', form);
  return MergeSingleResponse.parse(data);
};

export function useMergeSingle() {
  return useMutation({ mutationFn: mergeSingle });
}
