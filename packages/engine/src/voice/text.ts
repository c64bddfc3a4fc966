import type { WordTiming } from '../types.ts';

// Pictographs and the joiners, variation selectors, skin tones and keycap marks that build emoji sequences.
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\u{1F1E6}-\u{1F1FF}]|\u200D|\uFE0E|\uFE0F|\u20E3/gu;

/**
 * Emoji are neither spoken nor drawn: no bundled font draws them in colour and the voices read them as noise
 * (or not at all, which broke caption timings). They are dropped from script, hook and CTA before rendering.
 */
export function dropEmoji(text: string): string {
  EMOJI.lastIndex = 0;
  if (!EMOJI.test(text)) return text;
  EMOJI.lastIndex = 0;
  return text
    .replace(EMOJI, ' ')
    .replace(/[ \t]+([.,!?;:])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * The eSpeak voice for a script festival cannot read. Festival only speaks Latin letters: Hebrew or Arabic text
 * in an English script would otherwise be silent with every one of its words timed at 0 s.
 */
export function espeakVoiceForScript(text: string): string | null {
  if (/\p{Script=Hebrew}/u.test(text)) return 'he';
  if (/\p{Script=Arabic}/u.test(text)) return 'ar';
  if (/\p{Script=Cyrillic}/u.test(text)) return 'ru';
  if (/\p{Script=Greek}/u.test(text)) return 'el';
  return null;
}

/**
 * Caption timings always run forward: a token a voice skipped (timed before the word ahead of it) gets a share
 * of the time up to the next spoken word, so every word of every sentence appears, in order.
 */
export function forwardTimings(words: readonly WordTiming[], durationSec: number): WordTiming[] {
  const out = words.map((w) => ({ ...w }));
  const spoken = (i: number, after: number) => out[i]!.startSec >= after && out[i]!.endSec > out[i]!.startSec;
  for (let i = 0; i < out.length; i += 1) {
    const prevStart = i === 0 ? 0 : out[i - 1]!.startSec;
    if (spoken(i, prevStart)) continue;
    // A run of skipped tokens: spread them from the previous word's end to the next spoken word's start.
    let j = i;
    while (j < out.length && !spoken(j, prevStart)) j += 1;
    const from = i === 0 ? 0 : out[i - 1]!.endSec;
    const until = j < out.length ? out[j]!.startSec : Math.max(durationSec, from + 0.3 * (j - i));
    const step = Math.max(until - from, 0.05 * (j - i)) / (j - i);
    for (let k = i; k < j; k += 1) {
      out[k]!.startSec = from + step * (k - i);
      out[k]!.endSec = from + step * (k - i + 1);
    }
    i = j - 1;
  }
  return out;
}
