import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ProviderUsage } from '../remote/usage.ts';
import type { Accent, Gender, Language, WordTiming } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { parseEbur128 } from '../report/ebur128.ts';
import { finalTrim, levelFilter, levelGain } from '../render/audio.ts';
import { integratedLoudness, readPcmWav } from '../render/loudness.ts';
import { FFMPEG, wavDurationSec } from '../util/media.ts';
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
  /** 48 kHz mono WAV. */
  wavPath: string;
  durationSec: number;
  words: WordTiming[];
  voice: string;
  /** What a remote voice billed (characters); absent for the local voices. */
  usage?: ProviderUsage;
  /**
   * Integrated loudness of this WAV as the mix's first pass measures it (mono heard as stereo), taken while the
   * WAV was written; absent when not measured (the mix then measures it itself).
   */
  loudnessLufs?: number | null;
  /** The take levelled for a video without a music bed (see toVoiceWav); absent when it was not made. */
  levelled?: LevelledVoice | null;
}

/** A take at −14 LUFS behind the limiter, 48 kHz stereo, ending 0.4 s after the voice; `gainDb` is still to apply. */
export interface LevelledVoice {
  wavPath: string;
  gainDb: number;
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
    const { wavPath, durationSec, loudnessLufs, levelled } = await toVoiceWav(raw, outDir, signal, tempo);
    const scaled =
      tempo === 1 ? words : words.map((w) => ({ ...w, startSec: w.startSec / tempo, endSec: w.endSec / tempo }));
    return {
      wavPath,
      durationSec,
      words: forwardTimings(scaled, durationSec).map((w) => ({ ...w, endSec: Math.min(w.endSec, durationSec) })),
      voice,
      loudnessLufs,
      levelled,
    };
  },
};

/** The local voices' speed: 0.8–1.2 in hundredths, 1 when unset or unreadable. */
export function localTempo(speed: number | undefined): number {
  if (speed === undefined || !Number.isFinite(speed)) return 1;
  return Math.round(Math.min(1.2, Math.max(0.8, speed)) * 100) / 100;
}

/**
 * Every voice, local or remote, is resampled to one format (48 kHz mono WAV) so every render mixes the same.
 * `tempo` other than 1 speeds the speech up or slows it down without changing its pitch (ffmpeg atempo).
 *
 * When the voice came as 16-bit PCM (festival, eSpeak), its loudness is measured here first (render/loudness.ts)
 * and the same ffmpeg run also writes the take levelled for a video: the first pass's gain and the limiter applied,
 * 48 kHz stereo, 0.4 s of silence after the voice, and the meter on it gives the final trim (render/audio.ts).
 * A render without a music bed then needs no levelling run of its own (decision 150). Otherwise (an MP3 from a
 * provider) the run measures the WAV's loudness as the mix's first pass would, so that pass need not read the
 * voice again (decision 099).
 */
export async function toVoiceWav(
  raw: string,
  outDir: string,
  signal?: AbortSignal,
  tempo = 1,
): Promise<{ wavPath: string; durationSec: number; loudnessLufs: number | null; levelled: LevelledVoice | null }> {
  const wavPath = path.join(outDir, 'voice.wav');
  const speed = tempo === 1 ? '' : `atempo=${tempo},`;
  const pcm = await readPcmWav(raw).catch(() => null);
  // The video runs at least 0.4 s past the voice: measured with that silence, its last 400 ms blocks are whole.
  const measured = pcm ? integratedLoudness(pcm, { padSec: VOICE_TAIL_SEC }) : undefined;
  const toMono = `[0:a]${speed}aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,asplit=2[wav][m]`;
  const toStereo = `aformat=sample_fmts=fltp:channel_layouts=stereo,apad=pad_dur=${VOICE_TAIL_SEC}`;
  if (measured === undefined) {
    const { stderr } = await produceAtomic(wavPath, (tmp) =>
      runProcess(
        FFMPEG,
        [
          ...['-y', '-hide_banner', '-nostats', '-protocol_whitelist', 'file', '-i', raw],
          ...['-filter_complex', `${toMono};[m]${toStereo},ebur128[meter]`],
          ...['-map', '[wav]', '-c:a', 'pcm_s16le', '-f', 'wav', tmp],
          ...['-map', '[meter]', '-f', 'null', '-'],
        ],
        { timeoutMs: 60_000, signal },
      ),
    );
    const loudnessLufs = parseEbur128(stderr).integrated;
    return { wavPath, durationSec: await wavDurationSec(wavPath), loudnessLufs, levelled: null };
  }
  const levelledPath = path.join(outDir, 'voice-levelled.wav');
  const { stderr } = await produceAtomic(wavPath, (tmp) =>
    produceAtomic(levelledPath, (levelledTmp) =>
      runProcess(
        FFMPEG,
        [
          ...['-y', '-hide_banner', '-nostats', '-protocol_whitelist', 'file', '-i', raw],
          ...[
            '-filter_complex',
            `${toMono};[m]${toStereo},${levelFilter(levelGain(measured))},asplit=2[lv][lm];[lm]ebur128=peak=true[meter]`,
          ],
          ...['-map', '[wav]', '-c:a', 'pcm_s16le', '-f', 'wav', tmp],
          ...['-map', '[lv]', '-c:a', 'pcm_s16le', '-f', 'wav', levelledTmp],
          ...['-map', '[meter]', '-f', 'null', '-'],
        ],
        { timeoutMs: 60_000, signal },
      ),
    ),
  );
  return {
    wavPath,
    durationSec: await wavDurationSec(wavPath),
    loudnessLufs: measured,
    levelled: { wavPath: levelledPath, gainDb: finalTrim(parseEbur128(stderr)) },
  };
}

/** Silence a video always has after its voice (the levelled take carries it). */
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
