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
import { FESTIVAL_VOICES, festivalSpeak, type FestivalVoice } from './festival.ts';
import { dropEmoji, espeakVoiceForScript, forwardTimings } from './text.ts';

export interface VoiceRequest {
  text: string;
  language: Language;
  accent: Accent;
  gender: Gender;
  /** Speaking rate, 0.8–1.2 (1 = normal). Voices that cannot change it ignore it. */
  speed?: number;
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

/** Festival voice for English: the closest accent that exists, and the actor's gender. */
export function festivalVoiceFor(accent: Accent, gender: Gender): FestivalVoice | null {
  if (gender === 'female') return FESTIVAL_VOICES.femaleAmerican;
  return accent === 'british' ? FESTIVAL_VOICES.maleBritish : FESTIVAL_VOICES.maleAmerican;
}

/**
 * The local voice: festival for English (natural HTS voice, exact word timings), eSpeak-NG for the other
 * languages. The result is resampled to 48 kHz so every render mixes the same format.
 */
export const localVoice: VoiceSynthesizer = {
  async synthesize(req, outDir, signal) {
    await mkdir(outDir, { recursive: true });
    const raw = path.join(outDir, 'voice-raw.wav');
    let words: WordTiming[];
    let voice: string;
    const text = dropEmoji(req.text);
    const scriptVoice = espeakVoiceForScript(text);
    const festivalVoice = req.language === 'english' && !scriptVoice ? festivalVoiceFor(req.accent, req.gender) : null;
    if (festivalVoice && (await festivalVoiceInstalled(festivalVoice))) {
      voice = `festival:${festivalVoice}`;
      words = await festivalSpeak(text, festivalVoice, raw, signal);
    } else {
      const espeakVoice = scriptVoice
        ? `${scriptVoice}+${req.gender === 'female' ? 'f3' : 'm3'}`
        : espeakVoiceFor(req.language, req.accent, req.gender);
      voice = `espeak:${espeakVoice}`;
      words = (await espeakSpeak(text, espeakVoice, raw, signal)).words;
    }
    // festival and eSpeak are asked for their normal rate; the speed is applied to the audio (pitch kept) and the
    // word timings scaled with it, so both voices honour it the same way.
    const tempo = localTempo(req.speed);
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

const installed = new Map<string, Promise<boolean>>();
/** A voice package may be missing on a machine (e.g. rab_diphone); then the next-closest voice speaks. */
function festivalVoiceInstalled(voice: FestivalVoice): Promise<boolean> {
  let p = installed.get(voice);
  if (!p) {
    p = import('node:fs/promises').then(async ({ access }) => {
      const dirs = [`/usr/share/festival/voices/us/${voice}`, `/usr/share/festival/voices/english/${voice}`];
      for (const d of dirs) {
        try {
          await access(d);
          return true;
        } catch {
          /* try the next location */
        }
      }
      return false;
    });
    installed.set(voice, p);
  }
  return p;
}
