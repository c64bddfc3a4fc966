import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { ProviderUsage } from '../remote/usage.ts';
import type { Accent, Gender, Language, WordTiming } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { parseEbur128 } from '../report/ebur128.ts';
import { integratedLoudness, readPcmWav } from '../render/loudness.ts';
import { FFMPEG, ONE_FILTER_THREAD, wavDurationSec } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { espeakSpeak, espeakVoiceFor } from './espeak.ts';
import { availableBuiltInVoices, fliteName, pickVoice, type VoiceInfo } from './catalog.ts';
import { festivalSpeak, type FestivalVoice } from './festival.ts';
import { fliteSpeak } from './flite.ts';
import { operatorVoice, operatorVoices } from './operator.ts';
import { dropEmoji, espeakVoiceForScript, forwardTimings } from './text.ts';

export interface VoiceRequest {
  text: string;
  language: Language;
  accent: Accent;
  gender: Gender;
  /** Speaking rate, 0.8–1.2 (1 = normal). Voices that cannot change it ignore it. */
  speed?: number;
  /** The voice chosen (an id of availableVoices()); absent: the best for language, accent and gender. */
  voiceId?: string;
}

export interface VoiceResult {
  /** Mono 16-bit WAV: a local voice's own rate at normal speed, 48 kHz otherwise (see toVoiceWav). */
  wavPath: string;
  durationSec: number;
  words: WordTiming[];
  voice: string;
  /** What a remote voice billed (characters); absent for the local voices. */
  usage?: ProviderUsage;
  /**
   * Integrated loudness of this WAV as the mix's first pass measures it (mono heard as stereo, with the 0.4 s of
   * silence a video has after the voice); absent or null when not measured (the mix then measures it itself).
   */
  loudnessLufs?: number | null;
}

export interface VoiceSynthesizer {
  synthesize(req: VoiceRequest, outDir: string, signal?: AbortSignal): Promise<VoiceResult>;
}

/**
 * The local voice: the voice the request names when this machine has it, otherwise the best one for its
 * language, accent and gender (catalog.ts: an operator's Piper voices, then flite's and festival's natural English
 * voices, then eSpeak-NG). Every engine reports its own word timings. Text in a script the chosen voice cannot
 * read (Hebrew, Arabic…) is said by eSpeak in that script's language.
 */
export const localVoice: VoiceSynthesizer = {
  async synthesize(req, outDir, signal) {
    await mkdir(outDir, { recursive: true });
    const raw = path.join(outDir, 'voice-raw.wav');
    let words: WordTiming[];
    let voice: string;
    const text = dropEmoji(req.text);
    const scriptVoice = espeakVoiceForScript(text);
    const chosen = scriptVoice ? null : await resolveVoice(req);
    // Every engine but Piper is asked for its normal rate; the speed is then applied to the audio (pitch kept) and
    // the word timings scaled with it. Piper changes its own rate (length scale), which sounds more natural.
    let tempo = localTempo(req.speed);
    if (chosen?.engine === 'piper') {
      const op = operatorVoice(chosen.id);
      if (!op) throw new Error(`voice ${chosen.id} is not loaded`);
      words = await op.speak(text, raw, tempo, signal);
      voice = chosen.id;
      tempo = 1;
    } else if (chosen?.engine === 'flite') {
      words = await fliteSpeak(text, fliteName(chosen.id), raw, signal);
      voice = chosen.id;
    } else if (chosen?.engine === 'festival') {
      words = await festivalSpeak(text, chosen.id.slice('festival:'.length) as FestivalVoice, raw, signal);
      voice = chosen.id;
    } else {
      const espeakVoice = scriptVoice
        ? `${scriptVoice}+${req.gender === 'female' ? 'f3' : 'm3'}`
        : chosen
          ? chosen.id.slice('espeak:'.length)
          : espeakVoiceFor(req.language, req.accent, req.gender);
      words = (await espeakSpeak(text, espeakVoice, raw, signal)).words;
      voice = `espeak:${espeakVoice}`;
    }
    const { wavPath, durationSec, loudnessLufs } = await toVoiceWav(raw, outDir, signal, tempo);
    const scaled =
      tempo === 1 ? words : words.map((w) => ({ ...w, startSec: w.startSec / tempo, endSec: w.endSec / tempo }));
    return {
      wavPath,
      durationSec,
      words: forwardTimings(scaled, durationSec).map((w) => ({ ...w, endSec: Math.min(w.endSec, durationSec) })),
      voice,
      loudnessLufs,
    };
  },
};

/** Every voice this machine can speak with now: the operator's Piper voices, then the built-in ones. */
export async function availableVoices(): Promise<VoiceInfo[]> {
  return [...operatorVoices().map((v) => v.info), ...(await availableBuiltInVoices())];
}

/**
 * The voice a request is said with: the one it names when this machine has it and it speaks the request's
 * language (a voice removed since the project chose it gives way to the best remaining one), otherwise the best
 * for its language, accent and gender.
 */
export async function resolveVoice(
  req: Pick<VoiceRequest, 'voiceId' | 'language' | 'accent' | 'gender'>,
): Promise<VoiceInfo | null> {
  const voices = await availableVoices();
  const named = req.voiceId ? voices.find((v) => v.id === req.voiceId && v.language === req.language) : undefined;
  return named ?? pickVoice(voices, req);
}

/** The local voices' speed: 0.8–1.2 in hundredths, 1 when unset or unreadable. */
export function localTempo(speed: number | undefined): number {
  if (speed === undefined || !Number.isFinite(speed)) return 1;
  return Math.round(Math.min(1.2, Math.max(0.8, speed)) * 100) / 100;
}

/**
 * Every voice becomes a mono 16-bit WAV with its loudness known, so a render can level it as it encodes it.
 *
 * A local voice (festival, eSpeak) already is one: at normal speed its WAV is kept as it was spoken, at the
 * voice's own rate, and its loudness measured here (render/loudness.ts) — no ffmpeg run at all; the render's
 * encode resamples it and applies the levelling (decision 155). Otherwise — a provider's MP3, or a speed other
 * than 1 (`tempo`: faster or slower without a change of pitch, ffmpeg atempo) — one ffmpeg run writes it as
 * 48 kHz mono and measures its loudness as the mix's first pass would (decision 099).
 */
export async function toVoiceWav(
  raw: string,
  outDir: string,
  signal?: AbortSignal,
  tempo = 1,
): Promise<{ wavPath: string; durationSec: number; loudnessLufs: number | null }> {
  const wavPath = path.join(outDir, 'voice.wav');
  const pcm = tempo === 1 ? await readPcmWav(raw).catch(() => null) : null;
  if (pcm) {
    // The video runs at least 0.4 s past the voice: measured with that silence, its last 400 ms blocks are whole.
    const loudnessLufs = integratedLoudness(pcm, { padSec: VOICE_TAIL_SEC });
    await rename(raw, wavPath);
    return { wavPath, durationSec: pcm.channels[0]!.length / pcm.sampleRate, loudnessLufs };
  }
  const speed = tempo === 1 ? '' : `atempo=${tempo},`;
  const { stderr } = await produceAtomic(wavPath, (tmp) =>
    runProcess(
      FFMPEG,
      [
        ...['-y', '-hide_banner', '-nostats', '-protocol_whitelist', 'file', '-i', raw],
        ...ONE_FILTER_THREAD,
        ...[
          '-filter_complex',
          `[0:a]${speed}aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,asplit=2[wav][m];` +
            `[m]aformat=sample_fmts=fltp:channel_layouts=stereo,apad=pad_dur=${VOICE_TAIL_SEC},ebur128[meter]`,
        ],
        ...['-map', '[wav]', '-c:a', 'pcm_s16le', '-f', 'wav', tmp],
        ...['-map', '[meter]', '-f', 'null', '-'],
      ],
      { timeoutMs: 60_000, signal },
    ),
  );
  return { wavPath, durationSec: await wavDurationSec(wavPath), loudnessLufs: parseEbur128(stderr).integrated };
}

/** Silence a video always has after its voice (its loudness is measured with it). */
export const VOICE_TAIL_SEC = 0.4;
