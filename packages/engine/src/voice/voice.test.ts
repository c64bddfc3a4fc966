import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelFilter, levelGain, prepareAudio, TARGET_LUFS, TARGET_TRUE_PEAK } from '../render/audio.ts';
import { readPcmWav } from '../render/loudness.ts';
import { parseEbur128 } from '../report/ebur128.ts';
import { LANGUAGES, type Language } from '../types.ts';
import { audioPeak, FFMPEG, mediaDurationSec } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { localVoice } from './index.ts';
import { parseFestivalTokens } from './festival.ts';
import { tempDirForTests } from '../util/temp-dir.fixture.ts';

const LINES: Record<Language, string> = {
  english: 'This serum changed my skin in 7 days, honestly.',
  spanish: 'Este sérum cambió mi piel en siete días.',
  french: 'Ce sérum a changé ma peau en sept jours.',
  german: 'Dieses Serum hat meine Haut in sieben Tagen verändert.',
  portuguese: 'Este sérum mudou a minha pele em sete dias.',
  dutch: 'Dit serum heeft mijn huid in zeven dagen veranderd.',
};

describe('local voice', () => {
  const tmp = tempDirForTests('hookreel-voice-');

  it.each([
    ['emoji', 'Love this serum 😍🔥. It works in a week! ✨', 'Love this serum. It works in a week!'],
    ['Hebrew', 'שלום לכולם. This bottle is great.', 'שלום לכולם. This bottle is great.'],
    ['Arabic', 'مرحبا بكم. Try it today.', 'مرحبا بكم. Try it today.'],
  ])(
    'speaks an English script with %s: every word, in order, none timed at 0 s but the first',
    async (_, text, said) => {
      const out = await localVoice.synthesize(
        { text, language: 'english', accent: 'american', gender: 'female' },
        path.join(tmp.path, `mixed-${_}`),
      );
      expect(await audioPeak(out.wavPath)).toBeGreaterThan(0.05);
      expect(out.words.map((w) => w.word).join(' ')).toBe(said);
      for (let i = 1; i < out.words.length; i++) {
        expect(out.words[i]!.startSec).toBeGreaterThan(out.words[i - 1]!.startSec);
        expect(out.words[i]!.endSec).toBeGreaterThan(out.words[i]!.startSec);
      }
    },
  );

  it.each(LANGUAGES)('speaks %s with word timings in order', async (language) => {
    const text = LINES[language];
    const out = await localVoice.synthesize(
      { text, language, accent: 'american', gender: language === 'german' ? 'male' : 'female' },
      path.join(tmp.path, language),
    );
    const duration = await mediaDurationSec(out.wavPath);
    expect(duration).toBeGreaterThan(1);
    expect(out.durationSec).toBeCloseTo(duration, 1);
    expect(await audioPeak(out.wavPath)).toBeGreaterThan(0.05);
    expect(out.words.map((w) => w.word.replace(/[.,!?]/g, ''))).toEqual(
      text.split(' ').map((w) => w.replace(/[.,!?]/g, '')),
    );
    for (let i = 1; i < out.words.length; i++) {
      expect(out.words[i]!.startSec).toBeGreaterThanOrEqual(out.words[i - 1]!.startSec);
      expect(out.words[i]!.endSec).toBeGreaterThan(out.words[i]!.startSec);
    }
    expect(out.words[out.words.length - 1]!.endSec).toBeLessThanOrEqual(duration + 0.01);
    expect(out.voice).toMatch(language === 'english' ? /^festival:/ : /^espeak:/);
  });

  it.each([
    ['english', 'This serum changed my skin in seven days, honestly.'],
    ['spanish', LINES.spanish],
  ] as const)(
    'speaks %s faster at 1.2x and slower at 0.8x, its word timings scaled with it',
    async (language, text) => {
      const at = (speed: number) =>
        localVoice.synthesize(
          { text, language, accent: 'american', gender: 'female', speed },
          path.join(tmp.path, `speed-${language}-${speed}`),
        );
      const [normal, fast, slow] = [await at(1), await at(1.2), await at(0.8)];
      expect(fast.durationSec).toBeCloseTo(normal.durationSec / 1.2, 1);
      expect(slow.durationSec).toBeCloseTo(normal.durationSec / 0.8, 1);
      const last = (v: typeof normal) => v.words.at(-1)!.startSec;
      expect(last(fast)).toBeCloseTo(last(normal) / 1.2, 1);
      expect(last(slow)).toBeCloseTo(last(normal) / 0.8, 1);
      expect(fast.words.map((w) => w.word)).toEqual(normal.words.map((w) => w.word));
      expect(await audioPeak(fast.wavPath)).toBeGreaterThan(0.05);
    },
  );

  it.each([
    ['Hebrew', 'הסרום הזה שינה לי את הבקרים. העור שלי זוהר כל היום. נסו אותו היום!'],
    ['Spanish', 'Este sérum cambió mi piel. Pruébalo hoy.'],
  ])('eSpeak (%s): the pause between sentences is silent in the word timings too', async (_, text) => {
    const out = await localVoice.synthesize(
      { text, language: 'spanish', accent: 'american', gender: 'female' },
      path.join(tmp.path, `pauses-${_}`),
    );
    expect(out.voice).toMatch(/^espeak:/);
    // Where the audio is quiet for 0.2 s or more, by ffmpeg's own silence detector.
    const { stderr } = await runProcess(FFMPEG, [
      ...['-hide_banner', '-nostats', '-i', out.wavPath, '-af', 'silencedetect=n=-40dB:d=0.2', '-f', 'null', '-'],
    ]);
    const starts = [...stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
    const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
    const pauses = starts
      .map((s, i) => ({ from: s, to: ends[i] ?? out.durationSec }))
      .filter((p) => p.to < out.durationSec - 0.05);
    expect(pauses.length).toBe(text.split(/[.!?]\s/).length - 1);
    for (const p of pauses) {
      // No word is said in the pause: the sentence's last word ends where the sound stops (within 40 ms), the
      // next starts where it comes back.
      const before = out.words.filter((w) => w.startSec < p.from).at(-1)!;
      const after = out.words.find((w) => w.startSec >= p.from)!;
      expect(Math.abs(before.endSec - p.from)).toBeLessThan(0.04);
      expect(after.startSec).toBeGreaterThan(p.to - 0.06);
      expect(after.startSec - before.endSec).toBeGreaterThan(0.2);
    }
  });

  it('knows its loudness, so the encode levels it as a levelling run would (no audio run of its own)', async () => {
    // Loudness and true peak of a track after `chain`, by ffmpeg's meter, heard as the video has it.
    const meter = async (wav: string, chain: string) => {
      const { stderr } = await runProcess(FFMPEG, [
        ...['-hide_banner', '-nostats', '-i', wav, '-filter_complex'],
        `[0:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,${chain}apad=pad_dur=0.4,ebur128=peak=true`,
        ...['-f', 'null', '-'],
      ]);
      return parseEbur128(stderr);
    };
    for (const [language, speed, rate] of [
      // festival at normal speed: its own WAV, untouched; eSpeak faster: converted once, to 48 kHz.
      ['english', 1, 32000],
      ['spanish', 1.2, 48000],
    ] as const) {
      const out = await localVoice.synthesize(
        { text: LINES[language], language, accent: 'american', gender: 'female', speed },
        path.join(tmp.path, `loudness-${language}`),
      );
      expect((await readPcmWav(out.wavPath))?.sampleRate).toBe(rate);
      // The first pass agrees with ffmpeg's meter on the WAV. ffmpeg prints its figure to 0.1 LU and meters at
      // 48 kHz, ours at the take's own rate: a few tenths apart at most, far inside the report's ±1 LU.
      expect(out.loudnessLufs).toBeTypeOf('number');
      expect(Math.abs(out.loudnessLufs! - (await meter(out.wavPath, '')).integrated!)).toBeLessThanOrEqual(0.4);
      // The encode's levelling (that gain, then the limiter) lands where a levelling run of its own does.
      const levelled = await meter(
        out.wavPath,
        `${levelFilter(levelGain(out.loudnessLufs!))},aformat=sample_fmts=fltp:channel_layouts=stereo,`,
      );
      const mixed = path.join(tmp.path, `loudness-${language}-mix.wav`);
      const { gainDb } = await prepareAudio({
        voicePath: out.wavPath,
        durationSec: out.durationSec + 0.4,
        outPath: mixed,
      });
      const byMix = await meter(mixed, `volume=${gainDb}dB,`);
      expect(Math.abs(levelled.integrated! - byMix.integrated!)).toBeLessThanOrEqual(0.4);
      expect(Math.abs(levelled.integrated! - TARGET_LUFS)).toBeLessThanOrEqual(0.5);
      expect(levelled.truePeak!).toBeLessThanOrEqual(TARGET_TRUE_PEAK);
    }
  });

  it.each([
    ['american', 'male', 'flite:rms'],
    ['british', 'male', 'flite:awb'],
    ['american', 'female', 'festival:cmu_us_slt_arctic_hts'],
    // No British woman's voice is natural: festival's US one speaks rather than eSpeak's formant en-gb.
    ['british', 'female', 'festival:cmu_us_slt_arctic_hts'],
  ] as const)('gives a %s %s actor the best voice of their gender and accent (%s)', async (accent, gender, id) => {
    const out = await localVoice.synthesize(
      { text: 'Hello there.', language: 'english', accent, gender },
      path.join(tmp.path, `${accent}-${gender}`),
    );
    expect(out.voice).toBe(id);
  });

  it('says a line with the voice the project chose, and the best one when that voice is gone', async () => {
    const chosen = await localVoice.synthesize(
      { text: 'Hello there.', language: 'english', accent: 'american', gender: 'male', voiceId: 'espeak:en-us+m3' },
      path.join(tmp.path, 'chosen'),
    );
    expect(chosen.voice).toBe('espeak:en-us+m3');
    const gone = await localVoice.synthesize(
      { text: 'Hello there.', language: 'english', accent: 'american', gender: 'male', voiceId: 'piper:removed' },
      path.join(tmp.path, 'gone'),
    );
    expect(gone.voice).toBe('flite:rms');
  });

  it('parses festival token lines, keeping the written token and its punctuation', () => {
    expect(parseFestivalTokens('T\t0\t7\t,\t1.5\t2.0\nnoise\nT\t"\tHi\t0\t0.1\t0.3\n')).toEqual([
      { word: '7,', startSec: 1.5, endSec: 2 },
      { word: '"Hi', startSec: 0.1, endSec: 0.3 },
    ]);
  });
});
