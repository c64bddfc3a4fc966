import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPcmWav } from '../render/loudness.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { BUILT_IN_VOICES, pickVoice } from './catalog.ts';
import { fliteHelper, fliteSpeak } from './flite.ts';
import { tempDirForTests } from '../util/temp-dir.fixture.ts';

/** Where the audio is quiet for 80 ms or more (flite pauses briefly between sentences), by ffmpeg's own silence detector (the leading one alone, or neither it nor the trailing one). */
async function pauses(wav: string, durationSec: number, leading = false): Promise<Array<{ from: number; to: number }>> {
  const { stderr } = await runProcess(FFMPEG, [
    ...['-hide_banner', '-nostats', '-i', wav, '-af', 'silencedetect=n=-40dB:d=0.08', '-f', 'null', '-'],
  ]);
  const starts = [...stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts
    .map((s, i) => ({ from: s, to: ends[i] ?? durationSec }))
    .filter((p) => (leading ? p.from === 0 : p.from > 0.05 && p.to < durationSec - 0.05));
}

describe('flite voices', () => {
  const tmp = tempDirForTests('hookreel-flite-');

  it('builds its helper on this machine (scripts/ensure-system.sh installs flite1-dev)', async () => {
    expect(await fliteHelper()).toMatch(/flite-words-[0-9a-f]{12}$/);
  });

  it.each(['rms', 'awb'] as const)(
    '%s: every written token timed in order, and the pause between sentences silent in the timings too',
    async (voice) => {
      const text = 'Stop scrolling. This $7 serum changed my skin in two weeks! Try it today.';
      const wav = path.join(tmp.path, `${voice}.wav`);
      const words = await fliteSpeak(text, voice, wav);
      const pcm = (await readPcmWav(wav))!;
      const durationSec = pcm.channels[0]!.length / pcm.sampleRate;
      expect(pcm.sampleRate).toBe(16000);
      // "$7" is said as "seven dollars" and stays "$7" on screen; punctuation stays with its word.
      expect(words.map((w) => w.word)).toEqual(text.split(' '));
      for (let i = 1; i < words.length; i++) {
        expect(words[i]!.startSec).toBeGreaterThanOrEqual(words[i - 1]!.endSec - 1e-6);
        expect(words[i]!.endSec).toBeGreaterThan(words[i]!.startSec);
      }
      expect(words.at(-1)!.endSec).toBeLessThanOrEqual(durationSec);
      const quiet = await pauses(wav, durationSec);
      for (const [i, w] of words.entries()) {
        if (!/[.!]$/.test(w.word) || i === words.length - 1) continue;
        // The sentence's last word ends where the sound stops (40 ms); the next starts where it comes back, or
        // up to 60 ms before it when it opens with a stop, whose closure is silent.
        const p = quiet.find((q) => Math.abs(q.from - w.endSec) < 0.04);
        expect(p, `a pause after "${w.word}"`).toBeDefined();
        expect(words[i + 1]!.startSec).toBeGreaterThan(p!.to - 0.06);
        expect(words[i + 1]!.startSec).toBeLessThan(p!.to + 0.02);
      }
      // The first word starts where the sound does.
      const lead = await pauses(wav, durationSec, true);
      expect(Math.abs(words[0]!.startSec - lead[0]!.to)).toBeLessThan(0.04);
    },
  );
});

describe('choosing a built-in voice', () => {
  it.each([
    ['english', 'american', 'male', 'flite:rms'],
    ['english', 'british', 'male', 'flite:awb'],
    ['english', 'australian', 'male', 'flite:rms'],
    ['english', 'american', 'female', 'festival:cmu_us_slt_arctic_hts'],
    ['english', 'british', 'female', 'festival:cmu_us_slt_arctic_hts'],
    ['spanish', 'american', 'female', 'espeak:es-419+f3'],
    ['spanish', 'british', 'male', 'espeak:es+m3'],
    ['portuguese', 'american', 'male', 'espeak:pt-br+m3'],
    ['dutch', 'neutral', 'female', 'espeak:nl+f3'],
  ] as const)('%s, %s, %s: %s', (language, accent, gender, id) => {
    expect(pickVoice(BUILT_IN_VOICES, { language, accent, gender })?.id).toBe(id);
  });

  it('falls back to the next voice of that gender when the best is not installed', () => {
    const noFlite = BUILT_IN_VOICES.filter((v) => v.engine !== 'flite');
    expect(pickVoice(noFlite, { language: 'english', accent: 'american', gender: 'male' })?.id).toBe(
      'festival:kal_diphone',
    );
    expect(pickVoice(noFlite, { language: 'english', accent: 'british', gender: 'male' })?.id).toBe('espeak:gmw/en+m3');
  });

  it('gives every language a voice of each gender', () => {
    for (const language of ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch'] as const)
      for (const gender of ['male', 'female'] as const)
        expect(pickVoice(BUILT_IN_VOICES, { language, accent: 'neutral', gender })?.gender).toBe(gender);
  });
});
