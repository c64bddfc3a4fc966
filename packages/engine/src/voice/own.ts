import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { VOICE_OVER_LIMITS } from '@hookreel/contracts';
import { estimateWordTimings, speechSpan } from '../remote/openai.ts';
import type { WordTiming } from '../types.ts';
import { FFMPEG, mediaDurationSec } from '../util/media.ts';
import { produceAtomic } from '../util/files.ts';
import { runProcess } from '../util/process.ts';
import { ALIGN_RATE, alignWords, readSamples } from './align.ts';
import { genderOfPitch, medianPitchHz } from './pitch.ts';
import { localVoice, type VoiceResult, type VoiceSynthesizer } from './index.ts';
import { dropEmoji, forwardTimings } from './text.ts';

/** The longest own recording a video uses; the server refuses longer uploads, the engine cuts anything past it. */
export const OWN_VOICE_MAX_SEC = VOICE_OVER_LIMITS.maxDurationSec;

/**
 * How far the recording's speech may be from the local voice's take of the same script (length ratio) before the
 * match is not trusted: beyond it the recording is most likely other words, or long pauses, and DTW would pin
 * captions to the wrong places with false confidence.
 */
const PLAUSIBLE_RATIO = { min: 0.4, max: 2.5 } as const;

/** How the words of an own recording were timed: `aligned` to the audio, or `spread` over its speech. */
export type OwnVoiceTiming = 'aligned' | 'spread';

export interface OwnVoiceOptions {
  /** The voice that speaks the script as the alignment reference; the local voice by default. */
  reference?: VoiceSynthesizer;
  /** Told how the words were timed and why (for the job log). */
  onTiming?: (how: OwnVoiceTiming, why: string) => void;
}

/**
 * A voice that says nothing itself: the user's own recording is the voice, and the script's words are timed against
 * it. Forced alignment (align.ts) when the local voice can speak the script and the two takes are of comparable
 * length; otherwise the words are spread over the recording's speech like the OpenAI voice spreads them. The
 * speaking rate setting does not apply: the recording is used as it was spoken.
 */
export function ownVoice(recordingPath: string, options: OwnVoiceOptions = {}): VoiceSynthesizer {
  return {
    async synthesize(req, outDir, signal): Promise<VoiceResult> {
      await mkdir(outDir, { recursive: true });
      const wavPath = path.join(outDir, 'voice.wav');
      await produceAtomic(wavPath, (tmp) =>
        runProcess(
          FFMPEG,
          [
            ...['-y', '-v', 'error', '-protocol_whitelist', 'file', '-i', recordingPath, '-map', '0:a:0'],
            ...['-t', `${OWN_VOICE_MAX_SEC}`, '-ac', '1', '-ar', '48000', tmp],
          ],
          { timeoutMs: 120_000, signal },
        ),
      );
      const durationSec = await mediaDurationSec(wavPath);
      const text = dropEmoji(req.text).trim();
      const recSpan = await speechSpan(wavPath, durationSec, signal);
      const timed = await timeWords({ text, req, wavPath, recSpan, outDir, signal, options });
      options.onTiming?.(timed.how, timed.why);
      return {
        wavPath,
        durationSec,
        words: forwardTimings(timed.words, durationSec).map((w) => ({ ...w, endSec: Math.min(w.endSec, durationSec) })),
        voice: `own:${timed.how}`,
      };
    },
  };
}

async function timeWords(input: {
  text: string;
  req: Parameters<VoiceSynthesizer['synthesize']>[0];
  wavPath: string;
  recSpan: { startSec: number; endSec: number };
  outDir: string;
  signal?: AbortSignal;
  options: OwnVoiceOptions;
}): Promise<{ words: WordTiming[]; how: OwnVoiceTiming; why: string }> {
  const spread = (why: string) => ({
    words: estimateWordTimings(input.text, input.recSpan.startSec, input.recSpan.endSec),
    how: 'spread' as const,
    why,
  });
  if (!input.text) return spread('the script is empty');
  // The reference speaks with a voice of the recording's own register: DTW over cepstra matches a man's take to a
  // man's voice within a few hundredths of a second, and to a woman's only within tenths (decision 213). The
  // actor's gender and chosen voice are for the video, not for this. Unmeasurable pitch keeps the actor's gender.
  const pitch = medianPitchHz(await readSamples(input.wavPath, input.recSpan, input.signal), ALIGN_RATE);
  const gender = pitch === null ? input.req.gender : genderOfPitch(pitch);
  const { voiceId: _forVideo, ...voiceless } = input.req;
  let reference: VoiceResult;
  try {
    reference = await (input.options.reference ?? localVoice).synthesize(
      { ...voiceless, gender, text: input.text, speed: 1 },
      path.join(input.outDir, 'reference'),
      input.signal,
    );
  } catch (e) {
    if (input.signal?.aborted) throw e;
    return spread(`the local voice could not speak the script (${(e as Error).message})`);
  }
  if (reference.words.length === 0) return spread('the local voice timed no words');
  const refSpan = await speechSpan(reference.wavPath, reference.durationSec, input.signal);
  const ratio = (input.recSpan.endSec - input.recSpan.startSec) / Math.max(0.05, refSpan.endSec - refSpan.startSec);
  if (ratio < PLAUSIBLE_RATIO.min || ratio > PLAUSIBLE_RATIO.max) {
    return spread(`the recording's speech is ${ratio.toFixed(2)}x the script's spoken length`);
  }
  const words = await alignWords({
    referencePath: reference.wavPath,
    referenceSpan: refSpan,
    referenceWords: reference.words,
    recordingPath: input.wavPath,
    recordingSpan: input.recSpan,
    signal: input.signal,
  });
  return { words, how: 'aligned', why: `aligned to ${reference.voice}` };
}
