import { BIDI_CONTROL_MESSAGE, hasNoBidiControls, LIMITS, type HookPackStatus, VALIDATION } from '@hookreel/contracts';

/** The seven wizard steps, in order. */
export const WIZARD_STEPS = [
  'Upload Product',
  'Character Type',
  'Hook Message',
  'Characters',
  'Preview',
  'Generate',
  'Review & Download',
] as const;
export type WizardStepIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The status each step sets when moving on to the next one (docs/product.md#states). */
export const STEP_STATUS: Record<number, HookPackStatus> = {
  0: 'product_uploaded',
  1: 'character_types_defined',
  2: 'message_created',
  3: 'characters_selected',
  4: 'previews_ready',
  5: 'videos_ready',
  6: 'completed',
};

/** How far along a status is, so moving back and forth through the wizard never moves a pack backwards. */
const RANK: Record<string, number> = {
  created: 0,
  product_uploaded: 1,
  character_types_defined: 2,
  generating_characters: 2,
  message_created: 3,
  characters_selected: 4,
  generating_previews: 4,
  previews_ready: 5,
  generating_videos: 6,
  videos_ready: 7,
  completed: 8,
};

/** Whether moving to `next` advances a pack now in `current` (unknown statuses always advance). */
export function statusAdvances(current: string | null | undefined, next: HookPackStatus): boolean {
  const c = current ? RANK[current] : undefined;
  return c === undefined || (RANK[next] ?? 0) > c;
}

/** Character type descriptions: 1 to 6, none blank. Returns the first failing rule's message, or null. */
export function validateCharacterTypes(descriptions: readonly string[]): string | null {
  if (descriptions.length < LIMITS.characterTypesMin) return VALIDATION.characterTypesMin;
  if (descriptions.length > LIMITS.characterTypesMax) return VALIDATION.characterTypesMax;
  if (descriptions.some((d) => !d.trim())) return VALIDATION.characterTypesBlank;
  return null;
}

export const validateHookMessage = (text: string): string | null =>
  !text.trim() ? VALIDATION.hookRequired : hasNoBidiControls(text) ? null : BIDI_CONTROL_MESSAGE;

export const validateProductDescription = (text: string): string | null =>
  text.trim() ? null : VALIDATION.productDescription;

export const isImageFile = (file: File) => file.type.startsWith('image/');

/** Ready-made character type ideas offered as one-click chips. */
export const CHARACTER_TYPE_IDEAS = [
  'Young woman in her 20s, casual streetwear, friendly smile',
  'Fitness enthusiast in gym clothes, energetic',
  'Busy parent in a cosy kitchen',
  'Professional man in his 30s, smart casual',
  'Student in a dorm room, relaxed',
  'Retired woman in her 60s, warm and trustworthy',
] as const;

/**
 * The step a pack in `status` resumes at: the first step whose status it has not reached yet (the review step once
 * it is complete). A reload, or coming Back to a pack, lands where the user was, from the server's state.
 */
export function resumeStep(status: string | null | undefined): number {
  const reached = status ? (RANK[status] ?? 0) : 0;
  for (let i = 0; i < WIZARD_STEPS.length; i++) {
    const s = STEP_STATUS[i];
    if (s && (RANK[s] ?? 0) > reached) return i;
  }
  return WIZARD_STEPS.length - 1;
}
