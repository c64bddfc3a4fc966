import { z } from 'zod';
import { CutoutCheck } from './cutout.ts';
import { Accent, BIDI_CONTROL_MESSAGE, hasNoBidiControls, Language } from './common.ts';
import { LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { BrandStyleFields, UpdateBrandStyleFields } from './brand-kit.ts';
import { UpdateVideoStyleFields, VideoStyleFields, VoiceOver, VoiceSource } from './video.ts';

export const ProjectName = z
  .string()
  .trim()
  .min(LIMITS.projectNameMin, VALIDATION.nameMin)
  .max(LIMITS.projectNameMax, VALIDATION.nameMax);

export const Script = z
  .string()
  .max(LIMITS.scriptMax, VALIDATION.scriptMax)
  .refine(hasNoBidiControls, BIDI_CONTROL_MESSAGE);

export const ProjectCharacter = z.object({
  id: z.number().int(),
  prompt: z.string().nullable(),
  url: z.string(),
  display_url: z.string(),
  name: z.string(),
  selected: z.boolean(),
  x: z.number().nullable(),
  y: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  rotation: z.number(),
  is_merged: z.boolean(),
  merged_character: z.object({ url: z.string() }).nullable(),
  /** One of the built-in catalogue's drawn actors (Realistic needs the images provider to make it photoreal). */
  catalogue: z.boolean().default(false),
  /** A catalogue actor this user made photoreal (decision 216): `url` is that still, and Draft animates it. */
  photoreal: z.boolean().default(false),
});
export type ProjectCharacter = z.infer<typeof ProjectCharacter>;

export const Project = z
  .object({
    id: z.number().int(),
    name: z.string(),
    file_path: z.string().nullable(),
    script: z.string(),
    language: Language,
    accent: Accent,
    created_at: z.string(),
    updated_at: z.string(),
    characters: z.array(ProjectCharacter),
    /** Who speaks the script; `own` only while a recording is uploaded. */
    voice_source: VoiceSource,
    /** The uploaded own recording (`static/...`) and its length, or null for none. */
    voice_over: VoiceOver.nullable(),
    /**
     * The check of the product image's cut-out (product in hand, decision 214); null until it is made, and for
     * a project without a product image.
     */
    cutout_check: CutoutCheck.nullable().default(null),
  })
  .extend(VideoStyleFields.shape)
  .extend(BrandStyleFields.shape);
export type Project = z.infer<typeof Project>;

/** POST /projects/ is multipart: name and an optional file. */
export const CreateProjectFields = z.object({ name: ProjectName });
export const CreateProjectResponse = z.object({ id: z.number().int() });

export const UpdateProjectRequest = z
  .object({
    name: ProjectName,
    script: Script,
    language: Language,
    accent: Accent,
    voice_source: VoiceSource,
  })
  .extend(UpdateVideoStyleFields.shape)
  .extend(UpdateBrandStyleFields.shape)
  .partial()
  .strict();
export type UpdateProjectRequest = z.infer<typeof UpdateProjectRequest>;

export const SelectedCharactersRequest = z.object({
  character_ids: z.array(z.coerce.number().int().positive()).max(100),
});
