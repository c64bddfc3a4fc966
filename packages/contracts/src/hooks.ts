import { z } from 'zod';
import { Accent, BIDI_CONTROL_MESSAGE, hasNoBidiControls, Language, UrlId } from './common.ts';
import { LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { HookPackStatus, PreviewChoice, PreviewStatus } from './statuses.ts';
import { BrandStyleFields, UpdateBrandStyleFields } from './brand-kit.ts';
import { UpdateVideoStyleFields, VideoStyleFields } from './video.ts';
import { HookMatrix } from './hook-matrix.ts';
import { CutoutCheck } from './cutout.ts';

export const CharacterType = z.object({ id: z.number().int(), description: z.string(), order_index: z.number().int() });
export type CharacterType = z.infer<typeof CharacterType>;

export const GeneratedCharacter = z.object({
  id: z.number().int(),
  url: z.string(),
  /** The description it was drawn from; a creator's name for one of the user's own creators. */
  prompt: z.string(),
  selected: z.boolean(),
  character_type_id: z.number().int().nullable(),
  /**
   * What its videos look like: 'illustrated' (drawn by the engine from the description) or 'photo' (one of the
   * user's own creators, their photo animated; decision 207).
   */
  kind: z.enum(['photo', 'illustrated']).default('illustrated'),
  /** The own creator (GET /api/creators) this character is, or null for a drawn one. */
  creator_id: z.number().int().nullable().default(null),
});
export type GeneratedCharacter = z.infer<typeof GeneratedCharacter>;

export const PreviewCharacter = z.object({
  id: z.number().int(),
  generated_character_id: z.number().int(),
  url: z.string().nullable(),
  errors: z.string().nullable(),
  approved: z.boolean(),
  status: PreviewStatus,
  created_at: z.string(),
  position_x: z.number().nullable(),
  position_y: z.number().nullable(),
  scale: z.number().nullable(),
  rotation: z.number().nullable(),
});
export type PreviewCharacter = z.infer<typeof PreviewCharacter>;

export const HookPack = z
  .object({
    id: z.number().int(),
    name: z.string().nullable(),
    language: Language,
    accent: Accent,
    message: z.string().nullable(),
    product_details: z.string().nullable(),
    product_url: z.string().nullable(),
    detected_shape: z.string().nullable(),
    detected_category: z.string().nullable(),
    /** The product cut-out's check, once the analysis made it; null before. */
    cutout_check: CutoutCheck.nullable().default(null),
    status: z.string(),
    created_at: z.string(),
    character_types: z.array(CharacterType),
    generated_characters: z.array(GeneratedCharacter),
    preview_characters: z.array(PreviewCharacter),
  })
  .extend(VideoStyleFields.shape)
  .extend(BrandStyleFields.shape);
export type HookPack = z.infer<typeof HookPack>;

export const HookPackSummary = HookPack.pick({
  id: true,
  name: true,
  status: true,
  product_url: true,
  product_details: true,
  created_at: true,
}).extend({
  /**
   * The pack's videos being made realistic now ("Make realistic" queued or running): how many, and their mean
   * progress; null when none is.
   */
  realistic_upgrades: z
    .object({ count: z.number().int().min(1), progress: z.number().min(0).max(100) })
    .nullable()
    .default(null),
});
export type HookPackSummary = z.infer<typeof HookPackSummary>;

export const CreateHookPackRequest = z.object({
  name: z.string().trim().max(LIMITS.hookPackNameMax).optional(),
  language: Language.default('english'),
  accent: Accent.default('american'),
});

export const UpdateHookPackRequest = z
  .object({
    status: HookPackStatus,
    message: z
      .string()
      .trim()
      .min(1, VALIDATION.hookRequired)
      .max(LIMITS.hookTextMax)
      .refine(hasNoBidiControls, BIDI_CONTROL_MESSAGE),
    language: Language,
    accent: Accent,
    product_details: z.string().trim().min(1, VALIDATION.productDescription).max(LIMITS.productDetailsMax),
    name: z.string().trim().max(LIMITS.hookPackNameMax),
  })
  .extend(UpdateVideoStyleFields.shape)
  .extend(UpdateBrandStyleFields.shape)
  .partial()
  .strict();
export type UpdateHookPackRequest = z.infer<typeof UpdateHookPackRequest>;

export const CharacterTypesBatch = z
  .array(
    z.object({
      description: z.string().trim().min(1, VALIDATION.characterTypesBlank).max(LIMITS.characterDescriptionMax),
      order_index: z.number().int().min(0).max(100),
    }),
  )
  .min(LIMITS.characterTypesMin, VALIDATION.characterTypesMin)
  .max(LIMITS.characterTypesMax, VALIDATION.characterTypesMax);

export const HookPackIdQuery = z.object({ hook_pack_id: UrlId });
export const GenerateCharactersQuery = HookPackIdQuery.extend({
  count: z.coerce.number().int().min(1).max(12).default(LIMITS.charactersPerType),
  character_type_id: UrlId.optional(),
  description: z.string().trim().min(1).max(LIMITS.characterDescriptionMax).optional(),
});
/** POST /hooks/{id}/creators: one of the caller's own creators joins the pack as a (selected) character. */
export const AddPackCreatorRequest = z.object({ creator_id: z.number().int().positive() }).strict();
export type AddPackCreatorRequest = z.infer<typeof AddPackCreatorRequest>;

export const SelectedQuery = z.object({
  selected: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export const GeneratePreviewJson = z.object({
  hook_pack_id: z.number().int().positive(),
  character_ids: z.array(z.number().int().positive()).min(1).max(24),
});
export const UpdatePreviewRequest = z.object({ approved: z.boolean(), status: PreviewChoice }).partial();
export const RegenerateQuery = z.object({ reason: z.enum(['product', 'person']) });

/** One video variant of a pack: which character says which hook line. */
export const HookVariant = z.object({
  index: z.number().int().min(0),
  generated_character_id: z.number().int(),
  hook_text: z
    .string()
    .trim()
    .min(1, VALIDATION.hookRequired)
    .max(LIMITS.hookTextMax)
    .refine(hasNoBidiControls, BIDI_CONTROL_MESSAGE),
});
/** Either the 12 pairs (`variants`, or none for the defaults) or a hook matrix (docs/product.md#hook-matrix). */
export const QueueHookPackVideosRequest = z
  .object({ variants: z.array(HookVariant).max(LIMITS.videosPerHookPack), matrix: HookMatrix })
  .partial();
