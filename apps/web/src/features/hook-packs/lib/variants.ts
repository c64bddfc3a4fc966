import { LIMITS, writeHookLines, type HookLine, type HookLinesResponse } from '@hookreel/contracts';

export interface VariantRow {
  /** 1-based, as the server numbers the videos ('Video #n'). */
  index: number;
  generated_character_id: number;
  hook_text: string;
}

export interface DefaultLinesInput {
  hook: string;
  productDetails?: string | null;
  category?: string | null;
  language?: string;
  /** Lines the server suggested (a model's, when configured); the local angle library otherwise. */
  suggested?: Pick<HookLinesResponse, 'lines' | 'angles'> | undefined;
}

/** The pack's default hook lines with their angles: the server's suggestion, or the same library run locally. */
export function defaultLines(input: DefaultLinesInput): HookLine[] {
  if (!input.hook.trim()) return [];
  const s = input.suggested;
  if (s && s.lines.length > 0 && s.lines.length === s.angles.length) {
    return s.lines.map((text, i) => ({ text, angle: s.angles[i]! }));
  }
  return writeHookLines(
    {
      hook: input.hook,
      productDetails: input.productDetails ?? null,
      category: input.category ?? null,
      language: input.language ?? 'english',
    },
    LIMITS.videosPerHookPack,
  );
}

/**
 * The default pairs the server would write: LIMITS.videosPerHookPack rows, the user's hook first then one line
 * per hook angle, characters cycling over the approved previews' characters in preview order.
 */
export function defaultVariants(input: DefaultLinesInput & { approvedCharacterIds: readonly number[] }): VariantRow[] {
  const ids = [...new Set(input.approvedCharacterIds)];
  if (ids.length === 0) return [];
  return defaultLines(input).map((l, i) => ({
    index: i + 1,
    generated_character_id: ids[i % ids.length] as number,
    hook_text: l.text,
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
