import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription } from '../actors/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { hardFailures } from '../report/index.ts';
import type { WordTiming } from '../types.ts';
import { FFMPEG, mediaDurationSec } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { estimateWordTimings, speechSpan } from '../remote/openai.ts';
import { localVoice, type VoiceResult } from './index.ts';
import { ownVoice, type OwnVoiceTiming } from './own.ts';
import { FESTIVAL_VOICES } from './festival.ts';

const SCRIPT = 'I tried this serum for seven days, and honestly my skin has never looked better. Grab yours today!';

/** How far each caption word starts from where it is really said, in seconds. */
const startErrors = (got: readonly WordTiming[], truth: readonly WordTiming[]) =>
  got.map((w, i) => Math.abs(w.startSec - truth[i]!.startSec));
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('own voice-over', () => {
  let dir: string;
  /** A real recording whose word timings we know: the local voice, slowed to 0.8x, with a second of silence first. */
  let slow: VoiceResult & { paddedPath: string; padded: WordTiming[] };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-own-voice-'));
    const take = await localVoice.synthesize(
      { text: SCRIPT, language: 'english', accent: 'american', gender: 'female', speed: 0.8 },
      path.join(dir, 'slow'),
    );
    // An uploaded file is rarely a clean WAV: an M4A that starts with a second of room silence.
    const paddedPath = path.join(dir, 'slow-upload.m4a');
    await runProcess(FFMPEG, [
      ...['-y', '-v', 'error', '-i', take.wavPath, '-af', 'adelay=1000,apad=pad_dur=0.7'],
      ...['-c:a', 'aac', '-b:a', '128k', paddedPath],
    ]);
    const padded = take.words.map((w) => ({ ...w, startSec: w.startSec + 1, endSec: w.endSec + 1 }));
    slow = { ...take, paddedPath, padded };
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('times the script against a recording at another speed: every word start within 0.08 s of the truth', async () => {
    const how: OwnVoiceTiming[] = [];
    const out = await ownVoice(slow.paddedPath, { onTiming: (h) => how.push(h) }).synthesize(
      { text: SCRIPT, language: 'english', accent: 'american', gender: 'female', speed: 1.2 },
      path.join(dir, 'own-slow'),
    );
    expect(how).toEqual(['aligned']);
    expect(out.voice).toBe('own:aligned');
    // The video follows the recording, not the script at the voice's own pace (the speed setting is ignored).
    expect(out.durationSec).toBeCloseTo(await mediaDurationSec(slow.paddedPath), 1);
    expect(out.durationSec).toBeGreaterThan(slow.durationSec + 1.5);
    expect(out.words.map((w) => w.word)).toEqual(slow.words.map((w) => w.word));
    const errors = startErrors(out.words, slow.padded);
    // A naive spread over the speech is off by far more than this on the same recording (checked below).
    expect(Math.max(...errors)).toBeLessThan(0.08);
    expect(mean(errors)).toBeLessThan(0.04);
    for (let i = 1; i < out.words.length; i++)
      expect(out.words[i]!.startSec).toBeGreaterThan(out.words[i - 1]!.startSec);
  });

  it.each([
    ['the default male voice', undefined],
    ['the male diphone voice', `festival:${FESTIVAL_VOICES.maleAmerican}`],
  ])(
    'aligns a man’s take (%s, 0.9x) for a woman actor within 0.1 s on average: the reference follows his pitch',
    async (_name, voiceId) => {
      const take = await localVoice.synthesize(
        {
          text: SCRIPT,
          language: 'english',
          accent: 'american',
          gender: 'male',
          speed: 0.9,
          ...(voiceId ? { voiceId } : {}),
        },
        path.join(dir, `male-${voiceId ?? 'default'}`),
      );
      const out = await ownVoice(take.wavPath).synthesize(
        // The actor is a woman and the project chose a woman's voice: neither decides the reference.
        { text: SCRIPT, language: 'english', accent: 'american', gender: 'female', voiceId: 'flite:slt' },
        path.join(dir, `own-male-${voiceId ?? 'default'}`),
      );
      expect(out.voice).toBe('own:aligned');
      const errors = startErrors(out.words, take.words);
      expect(mean(errors)).toBeLessThan(0.1);
      expect(Math.max(...errors)).toBeLessThan(0.4);
    },
  );

  it('spreads the words over the speech when the recording cannot be the script (far too long)', async () => {
    // The script said four times over: no honest alignment of one reading exists.
    const long = path.join(dir, 'long.wav');
    await copyFile(slow.wavPath, path.join(dir, 'one.wav'));
    await runProcess(FFMPEG, [
      ...['-y', '-v', 'error', '-stream_loop', '3', '-i', path.join(dir, 'one.wav'), '-c:a', 'pcm_s16le', long],
    ]);
    const why: string[] = [];
    const out = await ownVoice(long, { onTiming: (h, w) => why.push(`${h}: ${w}`) }).synthesize(
      { text: SCRIPT, language: 'english', accent: 'american', gender: 'female' },
      path.join(dir, 'own-long'),
    );
    expect(out.voice).toBe('own:spread');
    expect(why[0]).toMatch(/^spread: the recording's speech is \d\.\d+x/);
    expect(out.words).toHaveLength(SCRIPT.split(' ').length);
    expect(out.words[0]!.startSec).toBeLessThan(0.3);
    expect(out.words.at(-1)!.endSec).toBeGreaterThan(out.durationSec - 1);
    expect(out.words.at(-1)!.endSec).toBeLessThanOrEqual(out.durationSec);
  });

  it('has a tolerance no alignment-free spread meets on the same recording', async () => {
    // Guards the first test: timing without alignment must not pass it.
    const span = await speechSpan(slow.paddedPath, await mediaDurationSec(slow.paddedPath));
    const spread = estimateWordTimings(SCRIPT, span.startSec, span.endSec);
    expect(Math.max(...startErrors(spread, slow.padded))).toBeGreaterThan(0.08);
  });

  it('renders a video that follows the recording: its length, captions on its words and a passing report', async () => {
    const out = await renderTalkingVideo({
      script: SCRIPT,
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('woman who loves skincare', 2) },
      hookText: 'Seven days',
      watermark: false,
      voice: ownVoice(slow.paddedPath),
      workDir: path.join(dir, 'render'),
    });
    expect(out.durationSec).toBeCloseTo((await mediaDurationSec(slow.paddedPath)) + 0.4, 1);
    expect(Math.abs((await mediaDurationSec(out.videoPath)) - out.durationSec)).toBeLessThan(0.3);
    expect(mean(startErrors(out.words, slow.padded))).toBeLessThan(0.04);
    expect(hardFailures(out.report)).toEqual([]);
    expect(out.report.checks.filter((c) => c.level === 'fail')).toEqual([]);
    // Loudness normalisation still applies to an uploaded recording.
    expect(out.report.integrated_lufs).not.toBeNull();
    expect(Math.abs(out.report.integrated_lufs! + 14)).toBeLessThan(1.5);
    expect(out.report.mouth?.present).toBe(true);
    if (process.env.OWN_VOICE_KEEP) await copyFile(out.contactSheetPath, process.env.OWN_VOICE_KEEP);
  });
});
