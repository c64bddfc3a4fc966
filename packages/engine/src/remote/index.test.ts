import { describe, expect, it } from 'vitest';
import { localVoice } from '../voice/index.ts';
import { FalLipSync } from './fal.ts';
import { OpenAIHookWriter } from './hook-writer.ts';
import { ElevenLabsVoice } from './elevenlabs.ts';
import { GeminiImageEdit, OpenAIImageEdit } from './image-edit.ts';
import { createEngineConfig, realisticAvailability, remoteStagesFromEnv } from './index.ts';
import { OpenAIImages, OpenAIVision, OpenAIVoice } from './openai.ts';

/** No stage remote: what the engine runs with no provider variables. */
const ALL_LOCAL = { voice: false, images: false, placement: false, vision: false, hooks: false, lipsync: false };

describe('engine config from env', () => {
  it('is all local with no provider variables', () => {
    expect(remoteStagesFromEnv({})).toEqual(ALL_LOCAL);
    const cfg = createEngineConfig({
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      FAL_BASE_URL: 'not a url',
      OPENAI_API_KEY: '  ',
    });
    expect(cfg.remote).toEqual(ALL_LOCAL);
    expect(cfg.voice).toBe(localVoice);
    expect([cfg.images, cfg.placement, cfg.vision, cfg.hooks, cfg.lipsync]).toEqual([null, null, null, null, null]);
    expect(cfg.summary).toEqual([
      'voice: local (festival / eSpeak-NG)',
      'images: local (illustrated character rig)',
      'placement: local (composite)',
      'vision: local (mask geometry + colour)',
      'hooks: local (rule-based variations)',
      'lipsync: local (lip-flap)',
    ]);
  });

  it('switches each stage on its own variable, with defaults', () => {
    const env = {
      OPENAI_API_KEY: 'sk-secret-abcdef',
      OPENAI_IMAGE_MODEL: 'dall-e-3',
      OPENAI_VISION_MODEL: 'gpt-4o-mini',
      OPENAI_TEXT_MODEL: 'gpt-4o-mini',
      FAL_KEY: 'fal-secret-123',
    };
    const cfg = createEngineConfig(env);
    expect(cfg.remote).toEqual({
      voice: true,
      images: true,
      placement: false,
      vision: true,
      hooks: true,
      lipsync: true,
    });
    expect(cfg.voice).toBeInstanceOf(OpenAIVoice);
    expect(cfg.images).toBeInstanceOf(OpenAIImages);
    expect(cfg.vision).toBeInstanceOf(OpenAIVision);
    expect(cfg.lipsync).toBeInstanceOf(FalLipSync);
    expect(cfg.hooks).toBeInstanceOf(OpenAIHookWriter);
    const voice = cfg.voice as OpenAIVoice;
    expect(voice.config).toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: env.OPENAI_API_KEY,
      ttsModel: 'gpt-4o-mini-tts',
    });
    expect((cfg.lipsync as FalLipSync).config).toMatchObject({
      key: env.FAL_KEY,
      baseUrl: 'https://queue.fal.run',
      model: 'fal-ai/bytedance/omnihuman',
      videoModel: 'fal-ai/sync-lipsync',
    });
    const summary = cfg.summary.join('\n');
    expect(summary).not.toContain('secret');
    expect(summary).toContain(
      'voice: remote (OpenAI-compatible https://api.openai.com/v1, gpt-4o-mini-tts, estimated word timings)',
    );
  });

  it('points at a keyless local server (Ollama / vLLM) with a model variable alone', () => {
    const cfg = createEngineConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1/', OPENAI_VISION_MODEL: 'llava' });
    expect(cfg.remote).toEqual({ ...ALL_LOCAL, vision: true });
    expect((cfg.vision as OpenAIVision).config).toMatchObject({
      baseUrl: 'http://localhost:11434/v1',
      visionModel: 'llava',
    });
    expect((cfg.vision as OpenAIVision).config.apiKey).toBeUndefined();
    const tts = createEngineConfig({
      OPENAI_BASE_URL: 'http://localhost:8880/v1',
      OPENAI_TTS_MODEL: 'kokoro',
      OPENAI_TTS_VOICE: 'af_bella',
    });
    expect(tts.remote.voice).toBe(true);
    expect((tts.voice as OpenAIVoice).config).toMatchObject({ ttsModel: 'kokoro', ttsVoice: 'af_bella' });
  });

  it('fails fast on a malformed base URL', () => {
    expect(() => createEngineConfig({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:11434' })).toThrow(
      /OPENAI_BASE_URL/,
    );
    expect(() => createEngineConfig({ FAL_KEY: 'k', FAL_BASE_URL: 'ftp://x' })).toThrow(
      /FAL_BASE_URL must be an http\(s\) URL/,
    );
  });

  it('makes the realistic stages remote: ElevenLabs voice, image edits (OpenAI or Gemini), fal avatar', () => {
    const env = {
      ELEVENLABS_API_KEY: 'el-secret-123456',
      OPENAI_API_KEY: 'sk-secret-abcdef',
      OPENAI_EDIT_MODEL: 'gpt-image-1',
      GEMINI_API_KEY: 'gm-secret-123456',
      FAL_KEY: 'fal-secret-123',
    };
    const cfg = createEngineConfig(env);
    // ElevenLabs wins the voice (exact timings); an explicit OpenAI edit model wins the placement.
    expect(cfg.voice).toBeInstanceOf(ElevenLabsVoice);
    expect(cfg.placement).toBeInstanceOf(OpenAIImageEdit);
    expect((cfg.placement as OpenAIImageEdit).config).toMatchObject({
      model: 'gpt-image-1',
      apiKey: env.OPENAI_API_KEY,
    });
    const gemini = createEngineConfig({ GEMINI_API_KEY: 'gm-secret-123456' });
    expect(gemini.placement).toBeInstanceOf(GeminiImageEdit);
    expect(gemini.voice).toBe(localVoice);
    expect(gemini.remote).toMatchObject({ placement: true, voice: false });
    const summary = [...cfg.summary, ...gemini.summary].join('\n');
    expect(summary).not.toMatch(/secret/);
    expect(summary).toContain('voice: remote (ElevenLabs https://api.elevenlabs.io, eleven_multilingual_v2');
    expect(summary).toContain('placement: remote (Gemini https://generativelanguage.googleapis.com/v1beta');
    expect(cfg.providers).toEqual({
      voice: 'ElevenLabs',
      images: null,
      placement: 'OpenAI-compatible',
      vision: null,
      hooks: null,
      lipsync: 'fal',
    });
    expect(cfg.wordTimings).toBe('exact');
    expect(createEngineConfig({ OPENAI_API_KEY: 'k' }).wordTimings).toBe('estimated');
  });

  it('says what Realistic lacks, stage by stage', () => {
    expect(realisticAvailability(remoteStagesFromEnv({}))).toEqual({
      videos: {
        available: false,
        missing: [
          'Product in hand: set OPENAI_EDIT_MODEL or GEMINI_API_KEY',
          'Voice: set ELEVENLABS_API_KEY (or an OpenAI-compatible voice)',
          'Talking actor: set FAL_KEY',
        ],
      },
      hookPacks: {
        available: false,
        missing: [
          'Product in hand: set OPENAI_EDIT_MODEL or GEMINI_API_KEY',
          'Voice: set ELEVENLABS_API_KEY (or an OpenAI-compatible voice)',
          'Talking actor: set FAL_KEY',
          'Characters: set OPENAI_IMAGE_MODEL',
        ],
      },
    });
    const all = realisticAvailability(
      remoteStagesFromEnv({
        ELEVENLABS_API_KEY: 'k',
        GEMINI_API_KEY: 'k',
        FAL_KEY: 'k',
        OPENAI_IMAGE_MODEL: 'gpt-image-1',
      }),
    );
    expect(all).toEqual({ videos: { available: true, missing: [] }, hookPacks: { available: true, missing: [] } });
  });
});
