import { access } from 'node:fs/promises';
import { LANGUAGE_NAMES, type Accent, type Gender, type Language } from '../types.ts';
import { FESTIVAL_VOICES } from './festival.ts';
import { fliteHelper, type FliteVoice } from './flite.ts';

/** The programs that speak: festival, flite and eSpeak-NG ship with the machine, Piper voices an operator adds. */
export type VoiceEngine = 'piper' | 'flite' | 'festival' | 'espeak';

/** One voice this engine can speak with. */
export interface VoiceInfo {
  /** Stable id: `<engine>:<name>` (e.g. `flite:rms`, `espeak:en-gb+m3`, `piper:en_US-lessac-medium`). */
  id: string;
  engine: VoiceEngine;
  /** What a person choosing a voice-over reads. */
  label: string;
  language: Language;
  accent: Accent;
  gender: Gender;
  /** Higher speaks first when a project names only language, accent and gender (decision 210). */
  rank: number;
  /** The voice's licence as its authors give it. */
  licence: string;
}

const ESPEAK_LICENCE = 'GPL-3.0-or-later (eSpeak-NG)';
const FLITE_LICENCE = 'BSD-style (CMU flite and its voices)';
const FESTIVAL_LICENCE = 'BSD-style (festvox voices)';

/** eSpeak's base voice per language and accent it has; the others speak the language's first entry. */
const ESPEAK_BASES: Array<{ language: Language; accent: Accent; base: string }> = [
  { language: 'english', accent: 'american', base: 'en-us' },
  // eSpeak ignores a variant after `en-gb` (en-gb+f3 is the male en-gb voice); its file id takes one.
  { language: 'english', accent: 'british', base: 'gmw/en' },
  { language: 'spanish', accent: 'neutral', base: 'es' },
  { language: 'spanish', accent: 'american', base: 'es-419' },
  { language: 'french', accent: 'neutral', base: 'fr' },
  { language: 'german', accent: 'neutral', base: 'de' },
  { language: 'portuguese', accent: 'neutral', base: 'pt' },
  { language: 'portuguese', accent: 'american', base: 'pt-br' },
  { language: 'dutch', accent: 'neutral', base: 'nl' },
];

/**
 * The built-in voices, best first within a language and gender by rank (measured and compared in decision 210):
 * flite's clustergen rms (US male) and awb (Scottish male) and festival's HTS slt (US female) above the diphone
 * kal and flite's own slt, all above eSpeak's formant voices, which speak every language.
 */
export const BUILT_IN_VOICES: readonly VoiceInfo[] = [
  {
    id: 'flite:rms',
    engine: 'flite',
    label: 'Ryan (US English, flite)',
    language: 'english',
    accent: 'american',
    gender: 'male',
    rank: 30,
    licence: FLITE_LICENCE,
  },
  {
    id: 'flite:awb',
    engine: 'flite',
    label: 'Alan (Scottish English, flite)',
    language: 'english',
    accent: 'british',
    gender: 'male',
    rank: 30,
    licence: FLITE_LICENCE,
  },
  {
    id: `festival:${FESTIVAL_VOICES.femaleAmerican}`,
    engine: 'festival',
    label: 'Sally (US English, festival HTS)',
    language: 'english',
    accent: 'american',
    gender: 'female',
    rank: 30,
    licence: FESTIVAL_LICENCE,
  },
  {
    id: 'flite:slt',
    engine: 'flite',
    label: 'Sally (US English, flite)',
    language: 'english',
    accent: 'american',
    gender: 'female',
    rank: 20,
    licence: FLITE_LICENCE,
  },
  {
    id: `festival:${FESTIVAL_VOICES.maleAmerican}`,
    engine: 'festival',
    label: 'Kal (US English, festival diphone)',
    language: 'english',
    accent: 'american',
    gender: 'male',
    rank: 15,
    licence: FESTIVAL_LICENCE,
  },
  ...ESPEAK_BASES.flatMap(({ language, accent, base }) =>
    (['male', 'female'] as const).map((gender): VoiceInfo => ({
      id: `espeak:${base}+${gender === 'female' ? 'f3' : 'm3'}`,
      engine: 'espeak',
      label: `${LANGUAGE_NAMES[language]} ${gender} (${base === 'gmw/en' ? 'en-gb' : base}, eSpeak-NG)`,
      language,
      accent,
      gender,
      rank: 10,
      licence: ESPEAK_LICENCE,
    })),
  ),
];

const present = new Map<string, Promise<boolean>>();

/** Whether a built-in voice can speak on this machine (its package installed, flite's helper built). */
export function builtInAvailable(voice: VoiceInfo): Promise<boolean> {
  let p = present.get(voice.id);
  if (!p) {
    const name = voice.id.slice(voice.id.indexOf(':') + 1);
    p =
      voice.engine === 'festival'
        ? anyExists([`/usr/share/festival/voices/us/${name}`, `/usr/share/festival/voices/english/${name}`])
        : voice.engine === 'flite'
          ? fliteHelper().then((b) => b !== null)
          : Promise.resolve(voice.engine === 'espeak');
    present.set(voice.id, p);
  }
  return p;
}

async function anyExists(paths: string[]): Promise<boolean> {
  for (const p of paths) {
    try {
      await access(p);
      return true;
    } catch {
      /* try the next one */
    }
  }
  return false;
}

/** The built-in voices this machine can speak with. */
export async function availableBuiltInVoices(): Promise<VoiceInfo[]> {
  const ok = await Promise.all(BUILT_IN_VOICES.map(builtInAvailable));
  return BUILT_IN_VOICES.filter((_, i) => ok[i]);
}

/** What a matching accent adds to a voice's rank: less than the gap between a natural and a formant voice. */
const ACCENT_BONUS = 15;

/**
 * The voice for a language, accent and gender: among `voices`, the language's voices of that gender (the other
 * gender only when it has none), the highest rank plus ACCENT_BONUS for the accent asked for. A British female
 * line is thus said by festival's natural US voice rather than eSpeak's British formant one, as before. Null when
 * none speaks the language.
 */
export function pickVoice(
  voices: readonly VoiceInfo[],
  want: { language: Language; accent: Accent; gender: Gender },
): VoiceInfo | null {
  let best: VoiceInfo | null = null;
  let bestScore = -Infinity;
  for (const v of voices) {
    if (v.language !== want.language) continue;
    const score = (v.gender === want.gender ? 1000 : 0) + (v.accent === want.accent ? ACCENT_BONUS : 0) + v.rank;
    if (score > bestScore) {
      best = v;
      bestScore = score;
    }
  }
  return best;
}

/** The flite voice name of a `flite:` id. */
export const fliteName = (id: string): FliteVoice => id.slice('flite:'.length) as FliteVoice;
