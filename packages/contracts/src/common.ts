import { z } from 'zod';

/** The one error shape every API failure answers with. */
export const ErrorResponse = z.object({ detail: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** The largest id we issue (PostgreSQL `integer`): anything above it names nothing. */
export const MAX_ID = 2_147_483_647;
/** The one answer (404) for an id in a URL that names nothing, malformed or out of range alike. */
export const ID_NOT_FOUND = 'Not found';
/**
 * An id as it appears in a URL path or query: canonical decimal only (no sign, leading zero, exponent, spaces or
 * fraction) and at most MAX_ID. The server answers any failure of it with a plain 404 (its error handler keys on
 * ID_NOT_FOUND), never with a parser's wording.
 */
export const UrlId = z
  .string({ error: ID_NOT_FOUND })
  .regex(/^[1-9][0-9]{0,9}$/, ID_NOT_FOUND)
  .refine((s) => Number(s) <= MAX_ID, ID_NOT_FOUND)
  .transform(Number);
export const IdParam = z.object({ id: UrlId });
export const IsoDate = z.string();

/**
 * Bidirectional control characters (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates) make text
 * read differently from how it is stored ("Trojan Source"), and captions would draw them as boxes. Scripts and
 * hooks refuse them; right-to-left letters themselves (Arabic, Hebrew) are welcome.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
export const BIDI_CONTROL_MESSAGE =
  'Remove the hidden text-direction characters (Unicode bidi controls such as U+202E) from the text';
export const hasNoBidiControls = (s: string): boolean => !BIDI_CONTROLS.test(s);

export const LANGUAGES = ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch'] as const;
export const ACCENTS = ['american', 'british', 'australian', 'indian', 'neutral'] as const;
export const Language = z.enum(LANGUAGES);
export const Accent = z.enum(ACCENTS);
export type Language = z.infer<typeof Language>;
export type Accent = z.infer<typeof Accent>;

/** The option lists each screen offers (docs/product.md#data). */
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
