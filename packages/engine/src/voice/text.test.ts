import { describe, expect, it } from 'vitest';
import { dropEmoji, espeakVoiceForScript, forwardTimings } from './text.ts';

describe('dropEmoji', () => {
  it.each([
    ['Love it 😍🔥!', 'Love it!'],
    ['Glow ✨ serum', 'Glow serum'],
    ['Family 👨‍👩‍👧 size, thumbs 👍🏽 up', 'Family size, thumbs up'],
    ['Made in 🇫🇷', 'Made in'],
    ['Keycap 1️⃣ deal', 'Keycap 1 deal'],
    ['Plain text, 7 days.', 'Plain text, 7 days.'],
    ['Untouched without emoji: garanti !', 'Untouched without emoji: garanti !'],
    ['Café crème — déjà vu', 'Café crème — déjà vu'],
  ])('%j → %j', (text, expected) => {
    expect(dropEmoji(text)).toBe(expected);
  });
});

describe('espeakVoiceForScript', () => {
  it('picks the voice of a script festival cannot read, none for Latin text', () => {
    expect(espeakVoiceForScript('שלום friends')).toBe('he');
    expect(espeakVoiceForScript('مرحبا')).toBe('ar');
    expect(espeakVoiceForScript('Привет')).toBe('ru');
    expect(espeakVoiceForScript('Γεια')).toBe('el');
    expect(espeakVoiceForScript('Crème brûlée, naïve façade')).toBeNull();
  });
});

describe('forwardTimings', () => {
  const w = (word: string, startSec: number, endSec: number) => ({ word, startSec, endSec });

  it('keeps timings that already run forward', () => {
    const words = [w('a', 0.1, 0.3), w('b', 0.3, 0.6), w('c', 0.7, 0.9)];
    expect(forwardTimings(words, 1)).toEqual(words);
  });

  it('gives skipped tokens a share of the gap before the next spoken word', () => {
    const out = forwardTimings([w('a', 0.1, 0.5), w('x', 0, 0), w('y', 0, 0), w('b', 1.1, 1.4)], 2);
    expect(out.map((x) => x.word)).toEqual(['a', 'x', 'y', 'b']);
    expect(out[1]).toEqual(w('x', 0.5, 0.8));
    expect(out[2]!.startSec).toBeCloseTo(0.8);
    expect(out[2]!.endSec).toBeCloseTo(1.1);
    expect(out[3]).toEqual(w('b', 1.1, 1.4));
  });

  it('places trailing skipped tokens after the last word, within the audio', () => {
    const out = forwardTimings([w('a', 0.1, 0.5), w('z', 0, 0)], 1.5);
    expect(out[1]).toEqual(w('z', 0.5, 1.5));
  });
});
