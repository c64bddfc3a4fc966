import { GeneratedCharacter, LIMITS } from '@hookreel/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const GenerateCharactersResponse = z.object({ job_id: z.number().int(), characters: z.array(GeneratedCharacter) });
export type GenerateCharactersResult = z.infer<typeof GenerateCharactersResponse>;

export interface GenerateCharactersInput {
  hookPackId: number;
  count?: number;
  /** Four people for one saved character type… */
  characterTypeId?: number;
  /** …or for a free description ('Generate More'). */
  description?: string;
}

/**
 * POST /api/hooks/generate-characters?hook_pack_id=&count=4&character_type_id= (or &description=) →
 * {job_id, characters}; the characters have an empty url until their portraits are rendered. 402 when the
 * credits do not cover them.
 */
export const generateCharacters = async ({
  hookPackId,
  count = LIMITS.charactersPerType,
  characterTypeId,
  description,
}: GenerateCharactersInput): Promise<GenerateCharactersResult> =>
  GenerateCharactersResponse.parse(
    await api.spend('/hooks/generate-characters', undefined, {
      query: { hook_pack_id: hookPackId, count, character_type_id: characterTypeId, description: description?.trim() },
    }),
  );

export function useGenerateCharacters() {
  return useMutation({ mutationFn: generateCharacters });
}
