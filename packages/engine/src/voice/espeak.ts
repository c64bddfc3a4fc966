import { fileURLToPath } from 'node:url';
import type { Accent, Gender, Language, WordTiming } from '../types.ts';
import { runProcess } from '../util/process.ts';

const CHILD = fileURLToPath(new URL('./espeak-child.mjs', import.meta.url));

const LANGUAGE_VOICES: Record<Language, string> = {
  english: 'en-us',
  spanish: 'es',
  french: 'fr',
  german: 'de',
  portuguese: 'pt',
  dutch: 'nl',
};

/** eSpeak voice id: language (accent-aware where eSpeak has one) plus a female or male variant. */
export function espeakVoiceFor(language: Language, accent: Accent, gender: Gender): string {
  let base = LANGUAGE_VOICES[language];
  // eSpeak ignores a variant after `en-gb` (en-gb+f3 spoke with the male voice); its file id takes one.
  if (language === 'english' && accent === 'british') base = 'gmw/en';
  if (language === 'portuguese' && accent === 'american') base = 'pt-br';
  if (language === 'spanish' && accent === 'american') base = 'es-419';
  return `${base}+${gender === 'female' ? 'f3' : 'm3'}`;
}

/** Speech through eSpeak-NG compiled to WebAssembly, in a child process; word timings from its word events. */
export async function espeakSpeak(
  text: string,
  voice: string,
  outWav: string,
  signal?: AbortSignal,
): Promise<{ words: WordTiming[]; durationSec: number }> {
  const { stdout } = await runProcess(process.execPath, [CHILD], {
    input: JSON.stringify({ text, voice, rate: 165, outPath: outWav }),
    timeoutMs: 120_000,
    signal,
  });
  return JSON.parse(stdout) as { words: WordTiming[]; durationSec: number };
}
