import { z } from 'zod';

/** The one error shape every API failure answers with. */
export const ErrorResponse = z.object({ detail: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const IdParam = z.object({ id: z.coerce.number().int().positive() });
export const IsoDate = z.string();

export const LANGUAGES = ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch'] as const;
export const ACCENTS = ['american', 'british', 'australian', 'indian', 'neutral'] as const;
export const Language = z.enum(LANGUAGES);
export const Accent = z.enum(ACCENTS);
export type Language = z.infer<typeof Language>;
export type Accent = z.infer<typeof Accent>;

/** The option lists each screen offers (spec section 3, "Language options"). */
export const LANGUAGE_OPTIONS = {
  projectEditor: ['english', 'spanish', 'dutch'],
  hookMessage: ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch'],
  merge: ['english'],
} as const satisfies Record<string, readonly Language[]>;
export const ACCENT_OPTIONS = {
  projectEditor: ['american', 'british', 'australian', 'indian'],
  hookMessage: ['american', 'british', 'australian', 'neutral'],
  merge: ['american'],
} as const satisfies Record<string, readonly Accent[]>;

export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
