import { writeFile } from 'node:fs/promises';
import { ort, type InferenceSession, type Tensor } from './ort.ts';
import type { WordTiming } from '../../types.ts';
import { abortError } from '../../util/process.ts';
import { pcmWav } from '../../util/wav.ts';
import type { VoiceInfo } from '../catalog.ts';
import type { OperatorVoice } from '../operator.ts';
import { phonemesToIds, sentences, tokenPhonemes, type PhonemeIdMap } from './phonemize.ts';
import { estimateSamples, tokenTimings } from './timing.ts';

/** What the runner needs of a Piper voice config (`<model>.onnx.json`), checked when it is loaded. */
export interface PiperConfig {
  sampleRate: number;
  espeakVoice: string;
  phonemeIdMap: PhonemeIdMap;
  noiseScale: number;
  lengthScale: number;
  noiseW: number;
  numSpeakers: number;
  /** Samples per frame of the duration output (Piper's `hop_length`, 256 for its VITS voices). */
  hopLength: number;
}

/** How a voice times its words: from the model's own durations, or estimated (timing.ts). */
export type PiperTiming = 'durations' | 'estimated';

/**
 * A Piper voice, run in this process by onnxruntime: one run per sentence (as Piper does), the sentences' audio
 * joined. Word timings come from the model's phoneme durations when it outputs them (a second output, as a
 * voice patched with Piper's `patch_voice_with_alignment` has), otherwise from estimateSamples.
 */
export class PiperVoice implements OperatorVoice {
  readonly timing: PiperTiming;

  constructor(
    readonly info: VoiceInfo,
    private readonly session: InferenceSession,
    private readonly config: PiperConfig,
  ) {
    this.timing = session.outputNames.length > 1 ? 'durations' : 'estimated';
  }

  async speak(text: string, outWav: string, speed = 1, signal?: AbortSignal): Promise<WordTiming[]> {
    const { audio, words } = await this.say(text, speed, signal);
    const pcm = new Int16Array(audio.length);
    for (let i = 0; i < audio.length; i++) pcm[i] = Math.round(Math.max(-1, Math.min(1, audio[i]!)) * 32767);
    await writeFile(outWav, pcmWav(pcm, this.config.sampleRate));
    return words;
  }

  /** The line's samples (float, the model's rate) and its tokens' timings. */
  async say(text: string, speed = 1, signal?: AbortSignal): Promise<{ audio: Float32Array; words: WordTiming[] }> {
    const chunks: Float32Array[] = [];
    const all = text.split(/\s+/).filter(Boolean);
    const timed: Array<WordTiming | null> = all.map(() => null);
    let offset = 0;
    for (const s of sentences(text)) {
      if (signal?.aborted) throw abortError(signal);
      const phonemes = await tokenPhonemes(s.tokens, this.config.espeakVoice);
      const sentence = phonemesToIds(s.tokens, phonemes, this.config.phonemeIdMap, s.first);
      const { audio, frames } = await this.run(sentence.ids, speed);
      const samples = frames
        ? frames.map((f) => Math.round(f * this.config.hopLength))
        : estimateSamples(sentence.phonemes, audio.length);
      tokenTimings(all, sentence.owners, samples, this.config.sampleRate, offset).forEach((t, i) => {
        if (t) timed[i] = t;
      });
      chunks.push(audio);
      offset += audio.length;
    }
    const audio = new Float32Array(offset);
    let at = 0;
    for (const c of chunks) {
      audio.set(c, at);
      at += c.length;
    }
    // A token with no phonemes (a lone dash) is left zero-length where the previous one ended; forwardTimings
    // gives it a share of the time to the next word.
    let last = 0;
    const words = all.map((word, i) => {
      const t = timed[i] ?? { word, startSec: last, endSec: last };
      last = t.endSec;
      return t;
    });
    return { audio, words };
  }

  /** One run of the model: Piper's inputs, its audio, and each id's frames when the model outputs them. */
  async run(ids: readonly number[], speed = 1): Promise<{ audio: Float32Array; frames: number[] | null }> {
    const c = this.config;
    const feeds: Record<string, Tensor> = {
      input: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
      input_lengths: new ort.Tensor('int64', BigInt64Array.from([BigInt(ids.length)]), [1]),
      // Piper's speed is its length scale: 1.2× faster is a length scale divided by 1.2.
      scales: new ort.Tensor('float32', Float32Array.from([c.noiseScale, c.lengthScale / speed, c.noiseW]), [3]),
    };
    if (c.numSpeakers > 1) feeds.sid = new ort.Tensor('int64', BigInt64Array.from([0n]), [1]);
    const out = await this.session.run(feeds);
    const audio = out[this.session.outputNames[0]!]!;
    const durations = this.session.outputNames[1] ? out[this.session.outputNames[1]] : undefined;
    const frames = durations ? Array.from(durations.data as Float32Array, Number) : null;
    return {
      audio: audio.data as Float32Array,
      frames: frames && frames.length === ids.length ? frames : null,
    };
  }
}
