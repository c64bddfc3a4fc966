import type { WordTiming } from '../../types.ts';
import { BOS, EOS, PAD } from './phonemize.ts';

/**
 * Each phoneme id's length in samples when the model does not say it (a voice not patched for alignments): the
 * sentence's samples shared out by weight, vowels twice a consonant, a pause (punctuation, the sentence's ends)
 * three times, a pad or stress mark nothing. An estimate: the sentence's own start and end stay exact (each
 * sentence is one run of the model), the words inside it drift by up to a phoneme or two.
 */
export function estimateSamples(phonemes: readonly string[], totalSamples: number): number[] {
  const weights = phonemes.map(weightOf);
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0) return phonemes.map(() => 0);
  // Rounded so the counts add up to the total exactly.
  let given = 0;
  let acc = 0;
  return weights.map((w) => {
    acc += w;
    const upTo = Math.round((acc / sum) * totalSamples);
    const n = upTo - given;
    given = upTo;
    return n;
  });
}

const VOWELS = new Set([...'aeiouyæøœɐɑɒɔəɘɚɛɜɞɤɨɪɯɵɶʉʊʌʏ']);
function weightOf(p: string): number {
  if (p === PAD || p === 'ˈ' || p === 'ˌ' || p === 'ː' || /\p{M}/u.test(p)) return 0;
  if (p === BOS || p === EOS || /[.,!?;:]/.test(p)) return 3;
  if (p === ' ') return 0.5;
  return VOWELS.has(p) ? 2 : 1;
}

/**
 * The tokens' timings from each id's samples: a token runs from its first id's start to its last id's end
 * (pads included, as Piper counts them), offset by where its sentence starts in the line.
 */
export function tokenTimings(
  tokens: readonly string[],
  owners: readonly number[],
  samples: readonly number[],
  sampleRate: number,
  offsetSamples: number,
): Array<WordTiming | null> {
  const out: Array<WordTiming | null> = tokens.map(() => null);
  let at = offsetSamples;
  owners.forEach((owner, i) => {
    const from = at;
    at += samples[i] ?? 0;
    const t = owner >= 0 ? out[owner] : undefined;
    if (owner < 0 || owner >= tokens.length) return;
    if (t) t.endSec = at / sampleRate;
    else out[owner] = { word: tokens[owner]!, startSec: from / sampleRate, endSec: at / sampleRate };
  });
  return out;
}
