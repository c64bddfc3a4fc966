/**
 * ElevenLabs text-to-speech "with timestamps": one call returns the audio and the time span of every character,
 * so the captions follow the real voice exactly (the OpenAI voice can only estimate them).
 * POST {base}/v1/text-to-speech/{voice_id}/with-timestamps — https://elevenlabs.io/docs/api-reference/text-to-speech
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Accent, Gender, Language, WordTiming } from '../types.ts';
import { writeFileAtomic } from '../util/files.ts';
import { toVoiceWav, type VoiceRequest, type VoiceResult, type VoiceSynthesizer } from '../voice/index.ts';
import { ProviderError, requestWithRetry, type FetchFn, type RetryPolicy } from './http.ts';
import { assertHttpUrl, nonEmpty } from './openai.ts';

const PROVIDER = 'ElevenLabs';
export const DEFAULT_ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io';
/** Speaks all six of our languages (and more) with the same voice; 1 credit per character. */
export const DEFAULT_ELEVENLABS_MODEL = 'eleven_multilingual_v2';
/** The speed range we offer; ElevenLabs itself accepts 0.7–1.2. */
export const MIN_VOICE_SPEED = 0.8;
export const MAX_VOICE_SPEED = 1.2;

/**
 * Current premade voices from the ElevenLabs library, by gender and accent (Rachel and Adam, the old American
 * defaults, are legacy voices retired in 2026). Accents with no premade voice use the American
 * one; the multilingual model speaks every language with the same voice, so one table serves them all.
 * ELEVENLABS_VOICE_FEMALE / ELEVENLABS_VOICE_MALE (or ELEVENLABS_VOICE_ID for all) replace them.
 */
export const ELEVENLABS_VOICES: Record<Gender, Partial<Record<Accent, string>> & { american: string }> = {
  female: { american: 'EXAVITQu4vr4xnSDxMaL' /* Sarah */, british: 'Xb7hH8MSUJpSbSDYk0k2' /* Alice */ },
  male: {
    american: 'TX3LPaxmHKxFdv7VOQHJ' /* Liam */,
    british: 'JBFqnCBsd6RMkjVDRZzb' /* George */,
    australian: 'IKne3meq5aSn9XLyUdCD' /* Charlie */,
  },
};

const LANGUAGE_CODES: Record<Language, string> = {
  english: 'en',
  spanish: 'es',
  french: 'fr',
  german: 'de',
  portuguese: 'pt',
  dutch: 'nl',
};

export interface ElevenLabsConfig {
  apiKey: string;
  baseUrl: string;
  model: string;
  /** One voice for every actor (ELEVENLABS_VOICE_ID). */
  voiceId?: string;
  voiceFemale?: string;
  voiceMale?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchFn;
}

export function elevenLabsConfigFromEnv(env: Record<string, string | undefined>): ElevenLabsConfig | null {
  const apiKey = nonEmpty(env.ELEVENLABS_API_KEY);
  if (!apiKey) return null;
  const baseUrl = (nonEmpty(env.ELEVENLABS_BASE_URL) ?? DEFAULT_ELEVENLABS_BASE_URL).replace(/\/+$/, '');
  assertHttpUrl('ELEVENLABS_BASE_URL', baseUrl);
  return {
    apiKey,
    baseUrl,
    model: nonEmpty(env.ELEVENLABS_MODEL) ?? DEFAULT_ELEVENLABS_MODEL,
    voiceId: nonEmpty(env.ELEVENLABS_VOICE_ID),
    voiceFemale: nonEmpty(env.ELEVENLABS_VOICE_FEMALE),
    voiceMale: nonEmpty(env.ELEVENLABS_VOICE_MALE),
  };
}

export function elevenLabsVoiceFor(cfg: ElevenLabsConfig, gender: Gender, accent: Accent): string {
  if (cfg.voiceId) return cfg.voiceId;
  const fixed = gender === 'female' ? cfg.voiceFemale : cfg.voiceMale;
  if (fixed) return fixed;
  const table = ELEVENLABS_VOICES[gender];
  return table[accent] ?? table.american;
}

export function clampSpeed(speed: number | undefined): number {
  if (speed === undefined || !Number.isFinite(speed)) return 1;
  return Math.min(MAX_VOICE_SPEED, Math.max(MIN_VOICE_SPEED, Math.round(speed * 100) / 100));
}

interface Alignment {
  characters?: string[];
  character_start_times_seconds?: number[];
  character_end_times_seconds?: number[];
}
interface WithTimestampsResponse {
  audio_base64?: string;
  alignment?: Alignment | null;
  normalized_alignment?: Alignment | null;
}

/**
 * Character alignment → word timings: a word is a run of non-space characters, from its first character's start
 * to its last character's end. Words keep their punctuation, like the local voices' tokens.
 */
export function wordsFromAlignment(a: Alignment): WordTiming[] {
  const chars = a.characters ?? [];
  const starts = a.character_start_times_seconds ?? [];
  const ends = a.character_end_times_seconds ?? [];
  if (chars.length === 0 || starts.length !== chars.length || ends.length !== chars.length) return [];
  const out: WordTiming[] = [];
  let word = '';
  let start = 0;
  let end = 0;
  const flush = () => {
    if (word) out.push({ word, startSec: round3(start), endSec: round3(Math.max(end, start + 0.01)) });
    word = '';
  };
  chars.forEach((c, i) => {
    if (/^\s*$/u.test(c)) {
      flush();
      return;
    }
    if (!word) start = starts[i]!;
    word += c;
    end = ends[i]!;
  });
  flush();
  return out;
}

/** Same text, voice and settings → same seed, so a retried request asks for the same audio. */
function seedFor(parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0);
}

export class ElevenLabsVoice implements VoiceSynthesizer {
  constructor(readonly config: ElevenLabsConfig) {}

  async synthesize(req: VoiceRequest, outDir: string, signal?: AbortSignal): Promise<VoiceResult> {
    const text = req.text.trim();
    if (!text) throw new Error('Nothing to say: the script is empty');
    await mkdir(outDir, { recursive: true });
    const cfg = this.config;
    const voiceId = elevenLabsVoiceFor(cfg, req.gender, req.accent);
    const speed = clampSpeed(req.speed);
    const body: Record<string, unknown> = {
      text,
      model_id: cfg.model,
      voice_settings: { stability: 0.5, similarity_boost: 0.75, speed },
      seed: seedFor([text, voiceId, cfg.model, String(speed)]),
    };
    // Only the v2.5 / v3 models take a forced language; multilingual v2 detects it from the text.
    if (/_v2_5$|_v3$/.test(cfg.model)) body.language_code = LANGUAGE_CODES[req.language];
    const res = await requestWithRetry({
      provider: PROVIDER,
      method: 'POST',
      url: `${cfg.baseUrl}/v1/text-to-speech/${encodeURIComponent(voiceId)}/with-timestamps?output_format=mp3_44100_128`,
      headers: { 'xi-api-key': cfg.apiKey },
      json: body,
      timeoutMs: cfg.timeoutMs ?? 120_000,
      signal,
      retry: cfg.retry,
      secrets: [cfg.apiKey],
      fetch: cfg.fetch,
    });
    const parsed = res.json<WithTimestampsResponse>();
    const audio = parsed.audio_base64 ? Buffer.from(parsed.audio_base64, 'base64') : Buffer.alloc(0);
    if (audio.length < 100) {
      throw new ProviderError(`${PROVIDER}: with-timestamps returned no audio`, PROVIDER, res.status);
    }
    const words = wordsFromAlignment(parsed.alignment ?? parsed.normalized_alignment ?? {});
    if (words.length === 0) {
      throw new ProviderError(`${PROVIDER}: with-timestamps returned no character alignment`, PROVIDER, res.status);
    }
    const raw = path.join(outDir, 'voice-raw.mp3');
    await writeFileAtomic(raw, audio);
    const { wavPath, durationSec, loudnessLufs } = await toVoiceWav(raw, outDir, signal);
    return {
      wavPath,
      durationSec,
      loudnessLufs,
      words: words.map((w) => ({ ...w, endSec: Math.min(w.endSec, durationSec) })),
      voice: `elevenlabs:${cfg.model}:${voiceId}`,
      usage: {
        provider: 'elevenlabs',
        stage: 'voice',
        model: cfg.model,
        characters: text.length,
        requestId: res.headers.get('request-id') ?? undefined,
      },
    };
  }
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
