import { z } from 'zod';
import { UrlId } from './common.ts';
import { BOUNDS_EDITOR, LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';

export const SIZES = ['small', 'medium', 'large'] as const;
export const SizeClass = z.enum(SIZES);
export type SizeClass = z.infer<typeof SizeClass>;

/** Under 80 small, 80 to 150 medium, above 150 large; missing width is medium. */
export const sizeClassOf = (width: number | null | undefined): SizeClass => {
  if (width === null || width === undefined) return 'medium';
  if (width < 80) return 'small';
  if (width > 150) return 'large';
  return 'medium';
};

export const Avatar = z.object({
  id: z.number().int(),
  url: z.string(),
  prompt: z.string().nullable(),
  name: z.string().nullable(),
  x: z.number().nullable(),
  y: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  rotation: z.number(),
  size: SizeClass,
  /** Merge status for the project named by the list call's project_id. */
  merge_status: z.enum(['not_merged', 'merging', 'merged', 'failed']).nullable(),
  merged_url: z.string().nullable(),
  /** One of the built-in catalogue's drawn actors (not a photo the user uploaded or generated). */
  catalogue: z.boolean().default(false),
  /** What the video will look like: a real photo animated, or a drawn (illustrated) actor. */
  kind: z.enum(['photo', 'illustrated']).default('photo'),
  /** One of the caller's own creators (private to them, decision 202), not the shared library. */
  own: z.boolean().default(false),
  /**
   * A few seconds of the actor talking (an MP4 in the file store, rendered once and kept; decisions 207 and 219),
   * or null until it is made (the card shows the picture). A creator's is made when they are added; any other
   * actor's when a user first asks for it (POST /avatars/{id}/talking-preview).
   */
  preview_url: z.string().nullable().default(null),
  /**
   * A catalogue actor the caller made photoreal (docs/product.md#photoreal-catalogue, decision 216): their Draft
   * videos animate that still, and `kind` is then `photo`.
   */
  photoreal: z.boolean().default(false),
  /** The caller has real mouth stills of this actor (decision 216): their Draft videos show those mouths. */
  mouth_stills: z.boolean().default(false),
});
export type Avatar = z.infer<typeof Avatar>;

/** POST /avatars/{id}/talking-preview: the actor's talking preview, or that it is being made. */
export const TalkingPreview = z.object({
  status: z.enum(['ready', 'rendering']),
  preview_url: z.string().nullable(),
});
export type TalkingPreview = z.infer<typeof TalkingPreview>;

/** One paid, once-per-actor step of an actor's look: whether it can be had here, whether it is done, its price. */
export const ActorLookStep = z.object({
  /** This server has the provider it needs, and the actor is one it applies to. */
  available: z.boolean(),
  /** Why not, in words, when it is not available (and not made). */
  reason: z.string().nullable(),
  made: z.boolean(),
  /** Credits it costs, shown before it is asked for. */
  price: z.number(),
  /** The job making it now, or null. */
  job_id: z.number().int().nullable(),
});
export type ActorLookStep = z.infer<typeof ActorLookStep>;

/**
 * GET /api/avatars/{id}/look: the caller's once-per-actor upgrades of an actor (decision 216): a catalogue actor
 * made photoreal, and real mouth stills made from the actor's photo.
 */
export const ActorLook = z.object({
  avatar_id: z.number().int(),
  /** The still the caller's Draft videos animate (a file key), when the actor was made photoreal; else null. */
  photo_url: z.string().nullable(),
  photoreal: ActorLookStep,
  mouth_stills: ActorLookStep,
});
export type ActorLook = z.infer<typeof ActorLook>;

export const ListAvatarsQuery = z.object({
  project_id: UrlId.optional(),
  /** A character description: the catalogue actors come first, best match first (decision 142). */
  description: z
    .string()
    .trim()
    .min(1, VALIDATION.characterDescriptionBlank)
    .max(LIMITS.characterDescriptionMax, VALIDATION.characterDescriptionTooLong)
    .optional(),
  sizes: z
    .string()
    .max(64)
    .optional()
    .transform((s) =>
      s
        ? s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : undefined,
    )
    .pipe(z.array(SizeClass).optional()),
});

const Corner = z.number().finite();
/** The bounds editor's smallest box (BOUNDS_EDITOR.minBox), held by the server too. */
const BOUNDS_TOO_SMALL = `Bounds must be at least ${BOUNDS_EDITOR.minBox} x ${BOUNDS_EDITOR.minBox} pixels`;
export const SavedBounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(BOUNDS_EDITOR.minBox, BOUNDS_TOO_SMALL),
  height: z.number().int().min(BOUNDS_EDITOR.minBox, BOUNDS_TOO_SMALL),
  rotation: z.number().int(),
  x1: Corner,
  y1: Corner,
  x2: Corner,
  y2: Corner,
  x3: Corner,
  y3: Corner,
  x4: Corner,
  y4: Corner,
});
export type SavedBounds = z.infer<typeof SavedBounds>;

/** The hard-coded catalogue of 12 actors (docs/product.md#data). */
export const ACTOR_GENDERS = ['male', 'female'] as const;
export const ACTOR_RACES = ['white', 'black', 'asian', 'hispanic', 'middle_eastern'] as const;
export const ACTOR_BACKGROUNDS = ['office', 'casual', 'outdoor', 'studio'] as const;
export const Actor = z.object({
  id: z.string(),
  name: z.string(),
  gender: z.enum(ACTOR_GENDERS),
  race: z.enum(ACTOR_RACES),
  background: z.enum(ACTOR_BACKGROUNDS),
});
export type Actor = z.infer<typeof Actor>;

export const ACTORS: readonly Actor[] = Array.from({ length: 12 }, (_, i) => ({
  id: String(i + 1),
  name: `Actor ${i + 1}`,
  gender: ACTOR_GENDERS[i % 2]!,
  race: ACTOR_RACES[i % ACTOR_RACES.length]!,
  background: ACTOR_BACKGROUNDS[Math.floor(i / 3) % ACTOR_BACKGROUNDS.length]!,
}));
