import { z } from 'zod';
import { ACTOR_GENDERS } from './avatars.ts';
import { Accent, Language } from './common.ts';

/** The programs that speak: an operator's Piper voices, flite, festival and eSpeak-NG (decisions 210, 211). */
export const VOICE_ENGINES = ['piper', 'flite', 'festival', 'espeak'] as const;
export const VoiceEngine = z.enum(VOICE_ENGINES);

/** A voice id: `<engine>:<name>`, e.g. `flite:rms`, `espeak:es+f3`, `piper:en_US-lessac-medium`. */
export const VoiceId = z
  .string()
  .max(200)
  .regex(
    /^(piper|flite|festival|espeak):[A-Za-z0-9_.+/-]+$/,
    'A voice id is <engine>:<name>, as GET /api/voices lists.',
  );

/** One voice this server can speak with (GET /api/voices). */
export const Voice = z.object({
  id: VoiceId,
  engine: VoiceEngine,
  /** What a person choosing a voice-over reads. */
  label: z.string(),
  language: Language,
  accent: Accent,
  gender: z.enum(ACTOR_GENDERS),
  /** The voice's licence as its authors give it (each Piper voice has its own). */
  licence: z.string(),
  /** A short sample of the voice (WAV), rendered once and kept; free to play. */
  sample_url: z.string(),
  /** The voice a project of this language, accent and gender gets when it names none. */
  default: z.boolean(),
});
export type Voice = z.infer<typeof Voice>;

export const VoiceList = z.object({ voices: z.array(Voice) });
export type VoiceList = z.infer<typeof VoiceList>;

/** What a voice's sample says, per language (short: a second or three). */
export const VOICE_SAMPLE_LINES: Record<z.infer<typeof Language>, string> = {
  english: 'Hi! This is how your video will sound.',
  spanish: '¡Hola! Así sonará tu vídeo.',
  french: 'Bonjour ! Voici comment sonnera ta vidéo.',
  german: 'Hallo! So wird dein Video klingen.',
  portuguese: 'Olá! É assim que o seu vídeo vai soar.',
  dutch: 'Hallo! Zo klinkt je video.',
};

/** What the server says when a project or pack picks a voice it cannot use. */
export const VOICE_MESSAGES = {
  unknown: (id: string) => `This server has no voice "${id}": pick one of the voices listed.`,
  otherLanguage: (label: string, language: z.infer<typeof Language>) =>
    `${label} does not speak ${language.charAt(0).toUpperCase()}${language.slice(1)}: pick one of its voices.`,
};
