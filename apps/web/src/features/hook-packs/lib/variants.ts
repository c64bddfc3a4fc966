import { LIMITS, writeHookVariants } from '@hookreel/contracts';

export interface VariantRow {
  /** 1-based, as the server numbers the videos ('Video #n'). */
  index: number;
  generated_character_id: number;
  hook_text: string;
}

/**
 * The default pairs the server would write: LIMITS.videosPerHookPack rows, the user's hook first then the
 * rule-based rewrites, characters cycling over the approved previews' characters in preview order.
 */
export function defaultVariants(input: {
  hook: string;
  productDetails?: string | null;
  language?: string;
  approvedCharacterIds: readonly number[];
  /** Lines the server suggested (a model's, when configured); the local rules otherwise. */
  suggested?: readonly string[];
}): VariantRow[] {
  const ids = [...new Set(input.approvedCharacterIds)];
  if (ids.length === 0 || !input.hook.trim()) return [];
  const lines = input.suggested?.length
    ? input.suggested
    : writeHookVariants(
        { hook: input.hook, productDetails: input.productDetails ?? null, language: input.language ?? 'english' },
        LIMITS.videosPerHookPack,
      );
  return lines.map((hook_text, i) => ({
    index: i + 1,
    generated_character_id: ids[i % ids.length] as number,
    hook_text,
  }));
}

/** The approved previews' character ids, in preview id order (the order the server cycles them). */
export function approvedCharacterIds(
  previews: readonly { id: number; approved: boolean; url: string | null; generated_character_id: number }[],
): number[] {
  return [
    ...new Set(
      [...previews]
        .filter((p) => p.approved && p.url && p.id > 0)
        .sort((a, b) => a.id - b.id)
        .map((p) => p.generated_character_id),
    ),
  ];
}
