/**
 * Text to Piper phoneme ids, as Piper does it (piper-phonemize): eSpeak-NG's IPA for each clause, every Unicode
 * codepoint (NFD) one phoneme, words joined by a space, the clause's punctuation kept as a phoneme, then
 * `^ _ (phoneme _)* $` with `_` Piper's pad. Unlike Piper we also keep which written token each phoneme id
 * belongs to, so the model's durations give each caption word its time.
 */

/** Piper's beginning, end and pad symbols. */
export const BOS = '^';
export const EOS = '$';
export const PAD = '_';

export type PhonemeIdMap = Record<string, number[]>;

/** One sentence ready for the model: its ids and, for each id, the index of its token in the line (-1: none). */
export interface PhonemizedSentence {
  ids: number[];
  owners: number[];
  /** The phoneme each id came from (BOS, EOS, PAD included), for the estimate of durations. */
  phonemes: string[];
}

/** The eSpeak-NG module, in this process: phonemizing a line takes milliseconds once it is started. */
interface EspeakWorker {
  set_voice(voice: string): number;
  synthesize_ipa(text: string): { code: number; ipa: string };
}
let worker: Promise<EspeakWorker> | null = null;
/** The package ships no declarations: imported by a name TypeScript does not resolve, and typed here. */
const ESPEAK_MODULE: string = '@echogarden/espeak-ng-emscripten';
function espeak(): Promise<EspeakWorker> {
  worker ??= (import(ESPEAK_MODULE) as Promise<{ default: () => Promise<{ eSpeakNGWorker: new () => EspeakWorker }> }>)
    .then((m) => m.default())
    .then((m) => new m.eSpeakNGWorker());
  return worker;
}

/** Whether eSpeak-NG has this voice (a Piper config's `espeak.voice`). */
export async function espeakHasVoice(voice: string): Promise<boolean> {
  const w = await espeak();
  return w.set_voice(voice) === 0;
}

/**
 * eSpeak's IPA for `text`: one array per clause, one array per word, one string per phoneme as eSpeak separates
 * them (`_`). Stress marks and length marks come attached to their phoneme; they are split into codepoints later.
 */
export async function ipaWords(text: string, voice: string): Promise<string[][][]> {
  const w = await espeak();
  if (w.set_voice(voice) !== 0) throw new Error(`eSpeak-NG has no voice "${voice}"`);
  const { code, ipa } = w.synthesize_ipa(text);
  if (code !== 0) throw new Error(`eSpeak-NG could not phonemize (code ${code})`);
  return parseIpa(ipa);
}

/** `s_t_ˈɑː_p s_k_ɹ_ˈoʊ\nð_ɪ_s` → clauses of words of phonemes (empty ones dropped). */
export function parseIpa(ipa: string): string[][][] {
  return ipa
    .split('\n')
    .map((clause) =>
      clause
        .split(' ')
        .map((word) => word.split('_').filter(Boolean))
        .filter((word) => word.length > 0),
    )
    .filter((clause) => clause.length > 0);
}

/** Punctuation Piper keeps as phonemes (a pause in the voice). */
const KEPT_PUNCTUATION = /[.,!?;:]+$/u;

/** The written tokens of a line, split into sentences (a token ending in . ! or ? closes one). */
export function sentences(text: string): Array<{ tokens: string[]; first: number }> {
  const tokens = text.split(/\s+/).filter(Boolean);
  const out: Array<{ tokens: string[]; first: number }> = [];
  let current: string[] = [];
  let first = 0;
  tokens.forEach((t, i) => {
    current.push(t);
    if (/[.!?]["')\]]*$/.test(t) || i === tokens.length - 1) {
      out.push({ tokens: current, first });
      current = [];
      first = i + 1;
    }
  });
  return out;
}

/**
 * The phonemes of each token of a sentence. The sentence is phonemized whole (eSpeak reduces "the", links words,
 * reads "$7" as two words…); when its words line up one to one with the written tokens each token gets its
 * word, otherwise each token is phonemized on its own so no phoneme is given to the wrong word.
 */
export async function tokenPhonemes(tokens: readonly string[], voice: string): Promise<string[][]> {
  const whole = (await ipaWords(tokens.join(' '), voice)).flat();
  const spoken = tokens.map((t) => /[\p{L}\p{N}]/u.test(t));
  if (whole.length === spoken.filter(Boolean).length) {
    let next = 0;
    return tokens.map((_, i) => (spoken[i] ? split(whole[next++]!) : []));
  }
  const out: string[][] = [];
  for (const [i, t] of tokens.entries())
    out.push(spoken[i] ? (await ipaWords(t, voice)).flat().flatMap((word) => split(word)) : []);
  return out;
}

/** eSpeak's phonemes of a word, as Piper's codepoint phonemes. */
const split = (word: readonly string[]): string[] => word.flatMap((p) => [...p.normalize('NFD')]);

/**
 * Ids for a sentence whose tokens have these phonemes: each token's phonemes, its trailing punctuation, a space
 * between tokens; then Piper's framing. Phonemes the voice does not know are dropped, as Piper drops them.
 */
export function phonemesToIds(
  tokens: readonly string[],
  phonemes: readonly string[][],
  map: PhonemeIdMap,
  firstToken = 0,
): PhonemizedSentence {
  const ids: number[] = [];
  const owners: number[] = [];
  const names: string[] = [];
  const push = (symbol: string, owner: number) => {
    for (const id of map[symbol] ?? []) {
      ids.push(id);
      owners.push(owner);
      names.push(symbol);
    }
  };
  const withPad = (symbol: string, owner: number) => {
    if (!map[symbol]) return;
    push(symbol, owner);
    push(PAD, owner);
  };
  push(BOS, -1);
  push(PAD, -1);
  tokens.forEach((token, i) => {
    const owner = firstToken + i;
    if (i > 0) withPad(' ', -1);
    for (const p of phonemes[i] ?? []) withPad(p, owner);
    for (const p of token.match(KEPT_PUNCTUATION)?.[0] ?? '') withPad(p, -1);
  });
  push(EOS, -1);
  return { ids, owners, phonemes: names };
}
