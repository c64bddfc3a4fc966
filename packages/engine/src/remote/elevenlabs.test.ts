import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe } from '../util/media.ts';
import {
  ElevenLabsVoice,
  clampSpeed,
  elevenLabsConfigFromEnv,
  elevenLabsVoiceFor,
  wordsFromAlignment,
  type ElevenLabsConfig,
} from './elevenlabs.ts';
import { rejectionOf, startFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { generatedMedia } from './generated-media.ts';
import { ProviderError } from './http.ts';
import { tooManyRequestsOnce } from './provider-fakes.ts';

const KEY = 'sk_eleven_0123456789abcdef';
const SCRIPT = 'Okay, this serum?  Game changer.';
let dir: string;
let mp3: Buffer;
let server: FakeServer | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-eleven-'));
  const out = path.join(dir, 'speech.mp3');
  // What the API sends in audio_base64 for mp3_44100_128: 2 s of MP3 at 44.1 kHz.
  mp3 = await generatedMedia(out, ['sine=frequency=220:duration=2'], ['-ar', '44100', '-b:a', '128k']);
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The documented answer: audio plus one start/end time per character of the input text (spaces included). */
function alignmentFor(text: string, from = 0.1, perChar = 0.05) {
  const characters = [...text];
  return {
    characters,
    character_start_times_seconds: characters.map((_, i) => Math.round((from + i * perChar) * 1000) / 1000),
    character_end_times_seconds: characters.map((_, i) => Math.round((from + (i + 1) * perChar) * 1000) / 1000),
  };
}

function okReply(text: string): FakeReply {
  const alignment = alignmentFor(text);
  return {
    headers: { 'request-id': 'el-req-42' },
    json: { audio_base64: mp3.toString('base64'), alignment, normalized_alignment: alignment },
  };
}

async function serve(handler: (req: RecordedRequest, n: number) => FakeReply): Promise<ElevenLabsConfig> {
  let n = 0;
  server = await startFakeServer((req) => handler(req, n++));
  return {
    apiKey: KEY,
    baseUrl: server.url,
    model: 'eleven_multilingual_v2',
    retry: { baseDelayMs: 20, maxDelayMs: 5_000 },
  };
}

describe('ElevenLabs voice with timestamps', () => {
  it('posts the documented request and turns the character alignment into exact word timings', async () => {
    const cfg = await serve((req) => okReply(req.json().text));
    const res = await new ElevenLabsVoice(cfg).synthesize(
      { text: ` ${SCRIPT} `, language: 'spanish', accent: 'british', gender: 'male', speed: 1.5 },
      path.join(dir, 'v1'),
    );
    const req = server!.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb/with-timestamps?output_format=mp3_44100_128');
    expect(req.headers['xi-api-key']).toBe(KEY);
    expect(req.headers.authorization).toBeUndefined();
    const body = req.json();
    expect(body).toMatchObject({
      text: SCRIPT,
      model_id: 'eleven_multilingual_v2',
      voice_settings: { stability: 0.5, similarity_boost: 0.75, speed: 1.2 },
    });
    expect(Number.isInteger(body.seed)).toBe(true);
    // Multilingual v2 detects the language itself and takes no language_code.
    expect(body.language_code).toBeUndefined();

    // Characters 0-4 "Okay," start at 0.1 s; the double space is skipped; punctuation stays on the word.
    expect(res.words).toEqual([
      { word: 'Okay,', startSec: 0.1, endSec: 0.35 },
      { word: 'this', startSec: 0.4, endSec: 0.6 },
      { word: 'serum?', startSec: 0.65, endSec: 0.95 },
      { word: 'Game', startSec: 1.05, endSec: 1.25 },
      { word: 'changer.', startSec: 1.3, endSec: 1.7 },
    ]);
    expect(res.voice).toBe('elevenlabs:eleven_multilingual_v2:JBFqnCBsd6RMkjVDRZzb');
    expect(res.usage).toEqual({
      provider: 'elevenlabs',
      stage: 'voice',
      model: 'eleven_multilingual_v2',
      characters: SCRIPT.length,
      requestId: 'el-req-42',
    });
    const probe = await ffprobe(res.wavPath);
    expect(probe.streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: '48000', channels: 1 });
    expect(res.durationSec).toBeGreaterThan(1.9);
  });

  it('asks the same seed for the same request, and forces the language on v2.5 models', async () => {
    const cfg = await serve((req) => okReply(req.json().text));
    const voice = new ElevenLabsVoice({ ...cfg, model: 'eleven_flash_v2_5' });
    const req = { text: 'Hola a todos', language: 'spanish', accent: 'neutral', gender: 'female' } as const;
    await voice.synthesize(req, path.join(dir, 'v2'));
    await voice.synthesize(req, path.join(dir, 'v3'));
    const [a, b] = server!.requests.map((r) => r.json());
    expect(a.language_code).toBe('es');
    expect(a.seed).toBe(b.seed);
    expect(a.voice_settings.speed).toBe(1);
    expect(server!.requests[0]!.path).toContain('/v1/text-to-speech/EXAVITQu4vr4xnSDxMaL/');
  });

  it('waits for Retry-After on 429 and then succeeds', async () => {
    const cfg = await serve(
      tooManyRequestsOnce(
        {
          detail: {
            status: 'too_many_concurrent_requests',
            message: 'Too many concurrent requests for your plan.',
          },
        },
        (req) => okReply(req.json().text),
      ),
    );
    const res = await new ElevenLabsVoice(cfg).synthesize(
      { text: 'Try it.', language: 'english', accent: 'american', gender: 'female' },
      path.join(dir, 'v4'),
    );
    expect(res.words.map((w) => w.word)).toEqual(['Try', 'it.']);
    const [first, second] = server!.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("fails at once on a bad key with ElevenLabs' own message and never shows the key", async () => {
    const cfg = await serve(() => ({
      status: 401,
      json: { detail: { status: 'invalid_api_key', message: `Invalid API key: ${KEY}` } },
    }));
    const err = await rejectionOf(
      new ElevenLabsVoice(cfg).synthesize(
        { text: 'Hi there', language: 'english', accent: 'american', gender: 'male' },
        path.join(dir, 'v5'),
      ),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('invalid_api_key');
    expect(err.message).toMatch(/ElevenLabs error 401 .*Invalid API key: \*\*\*/);
    expect(err.message).not.toContain(KEY);
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses an answer without alignment rather than guessing timings', async () => {
    const cfg = await serve(() => ({ json: { audio_base64: mp3.toString('base64'), alignment: null } }));
    const err = await rejectionOf(
      new ElevenLabsVoice(cfg).synthesize(
        { text: 'Hi there', language: 'english', accent: 'american', gender: 'male' },
        path.join(dir, 'v6'),
      ),
    );
    expect(err.message).toBe('ElevenLabs: with-timestamps returned no character alignment');
  });
});

describe('ElevenLabs config and helpers', () => {
  it('is off without a key and reads its variables', () => {
    expect(elevenLabsConfigFromEnv({ ELEVENLABS_API_KEY: ' ' })).toBeNull();
    const cfg = elevenLabsConfigFromEnv({
      ELEVENLABS_API_KEY: 'k',
      ELEVENLABS_BASE_URL: 'http://gpu-box:8020/',
      ELEVENLABS_VOICE_FEMALE: 'voice-f',
    })!;
    expect(cfg).toMatchObject({ baseUrl: 'http://gpu-box:8020', model: 'eleven_multilingual_v2' });
    expect(elevenLabsVoiceFor(cfg, 'female', 'british')).toBe('voice-f');
    expect(elevenLabsVoiceFor(cfg, 'male', 'australian')).toBe('IKne3meq5aSn9XLyUdCD');
    expect(elevenLabsVoiceFor(cfg, 'male', 'indian')).toBe('TX3LPaxmHKxFdv7VOQHJ');
    expect(elevenLabsVoiceFor({ ...cfg, voiceId: 'one' }, 'female', 'british')).toBe('one');
    expect(() => elevenLabsConfigFromEnv({ ELEVENLABS_API_KEY: 'k', ELEVENLABS_BASE_URL: 'ftp://x' })).toThrow(
      /ELEVENLABS_BASE_URL/,
    );
  });

  it('keeps the speed inside 0.8–1.2', () => {
    expect([clampSpeed(undefined), clampSpeed(0.5), clampSpeed(0.9), clampSpeed(2), clampSpeed(NaN)]).toEqual([
      1, 0.8, 0.9, 1.2, 1,
    ]);
  });

  it('returns no words for a malformed alignment', () => {
    expect(wordsFromAlignment({ characters: ['a'], character_start_times_seconds: [] })).toEqual([]);
    expect(wordsFromAlignment({})).toEqual([]);
  });
});
