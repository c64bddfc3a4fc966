import { MaskPlacement } from '@hookreel/contracts';

/**
 * A project character's stored placement (the mask_placement column), checked against its schema: null when it
 * has none, or when the stored text no longer reads as one.
 */
export function storedPlacement(text: string | null | undefined): MaskPlacement | null {
  if (!text) return null;
  try {
    const parsed = MaskPlacement.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
