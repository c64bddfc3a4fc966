/** Shared vocabulary of the engine stages. Kept here (not in contracts) so the engine stays usable on its own. */

export const LANGUAGES = ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in English, as voice labels and provider prompts say it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  english: 'English',
  spanish: 'Spanish',
  french: 'French',
  german: 'German',
  portuguese: 'Portuguese',
  dutch: 'Dutch',
};

export const ACCENTS = ['american', 'british', 'australian', 'indian', 'neutral'] as const;
export type Accent = (typeof ACCENTS)[number];

export type Gender = 'male' | 'female';

/** One spoken word with its time span in the voice track, in seconds. */
export interface WordTiming {
  word: string;
  startSec: number;
  endSec: number;
}

export type ProgressFn = (fraction: number, message: string) => void;

/** Frame geometry shared by actors, placement and the editors (positions live in a 576x1024 frame). */
export const FRAME_WIDTH = 576;
export const FRAME_HEIGHT = 1024;
/** Output video geometry. */
export const VIDEO_WIDTH = 720;
export const VIDEO_HEIGHT = 1280;
