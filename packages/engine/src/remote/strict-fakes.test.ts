/**
 * The strict fakes refuse what each provider refuses (one test per refusal), and accept what the production
 * adapters send with the settings an operator gets from the environment. These are the fakes the server tests and
 * e2e use (`@hookreel/engine/testing`), so a request the real API would refuse fails there too.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ELEVENLABS_VOICES, ElevenLabsVoice, elevenLabsConfigFromEnv } from './elevenlabs.ts';
import { FalLipSync, falConfigFromEnv } from './fal.ts';
import { rejectionOf, startFakeServer, type FakeServer } from './fake-server.ts';
import { generatedMedia } from './generated-media.ts';
import { ProviderError, requestWithRetry } from './http.ts';
import { OpenAIImageEdit, openAIEditSettingsFromEnv } from './image-edit.ts';
import { OpenAIImages, openAIConfigFromEnv } from './openai.ts';
import {
  FAKE_ELEVENLABS_VOICES,
  elevenLabsHandler,
  falQueueHandler,
  geminiImageEditHandler,
  openAIImagesHandler,
} from './provider-fakes.ts';

let dir: string;
let portrait: Buffer;
let mp3: Buffer;
let actorPath: string;
let productPath: string;
let shortWav: string;
let longWav: string;
let clip: Buffer;
const servers: FakeServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-strict-'));
  portrait = await sharp({ create: { width: 1024, height: 1536, channels: 3, background: '#c8a58a' } })
    .png()
    .toBuffer();
  actorPath = path.join(dir, 'actor.png');
  await sharp(portrait).resize(576, 1024).toFile(actorPath);
  productPath = path.join(dir, 'product.png');
  await sharp({ create: { width: 200, height: 400, channels: 4, background: { r: 30, g: 90, b: 200, alpha: 1 } } })
    .png()
    .toFile(productPath);
  shortWav = path.join(dir, 'short.wav');
  await generatedMedia(shortWav, ['sine=duration=2'], ['-ar', '48000', '-ac', '1']);
  longWav = path.join(dir, 'long.wav');
  await generatedMedia(longWav, ['sine=duration=31'], ['-ar', '16000', '-ac', '1']);
  const mp3Path = path.join(dir, 'v.mp3');
  mp3 = await generatedMedia(mp3Path, ['sine=duration=1'], ['-ar', '44100']);
  const clipPath = path.join(dir, 'out.mp4');
  clip = await generatedMedia(
    clipPath,
    ['testsrc=size=144x256:rate=25:duration=1'],
    ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Parameters<typeof startFakeServer>[0]): Promise<FakeServer> {
  const s = await startFakeServer(handler);
  servers.push(s);
  return s;
}

/** One raw request to a fake: status and JSON body. */
async function send(url: string, init: { method?: string; headers?: Record<string, string>; json?: unknown }) {
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- provider JSON
}

describe('OpenAI images, strict', () => {
  const auth = { authorization: 'Bearer sk-test' };
  const generate = (s: FakeServer, body: Record<string, unknown>) =>
    send(`${s.url}/v1/images/generations`, { headers: auth, json: { prompt: 'a person', n: 1, ...body } });

  it("refuses gpt-image-1 at 1024x1792 (what production sent before) with OpenAI's own error", async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    const res = await generate(s, { model: 'gpt-image-1', size: '1024x1792' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      message: "Invalid value: '1024x1792'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.",
      type: 'invalid_request_error',
      param: 'size',
      code: 'invalid_value',
    });
  });

  it('refuses response_format for GPT image models', async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    const res = await generate(s, { model: 'chatgpt-image-latest', size: '1024x1536', response_format: 'b64_json' });
    expect([res.status, res.body.error.code]).toEqual([400, 'unknown_parameter']);
  });

  it('refuses the retired DALL·E models', async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    const res = await generate(s, { model: 'dall-e-3', size: '1024x1792', response_format: 'b64_json' });
    expect([res.status, res.body.error.code]).toEqual([404, 'model_not_found']);
  });

  it('refuses a quality the model does not take, and a gpt-image-2 size off the 16-pixel grid', async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    const q = await generate(s, { model: 'gpt-image-1', size: '1024x1536', quality: 'hd' });
    expect([q.status, q.body.error.param]).toEqual([400, 'quality']);
    const size = await generate(s, { model: 'gpt-image-2', size: '1000x1800' });
    expect([size.status, size.body.error.param]).toEqual([400, 'size']);
  });

  for (const model of ['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'chatgpt-image-latest', 'gpt-image-2']) {
    it(`accepts what production sends for ${model} from the environment (size, medium quality, no response_format)`, async () => {
      const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
      const cfg = openAIConfigFromEnv({
        OPENAI_BASE_URL: `${s.url}/v1`,
        OPENAI_API_KEY: 'k',
        OPENAI_IMAGE_MODEL: model,
      });
      const res = await new OpenAIImages(cfg).generate({
        description: 'a woman',
        outPath: path.join(dir, `${model}.png`),
      });
      expect(res.width).toBe(576);
      expect(s.requests[0]!.json()).toMatchObject({ model, size: '1024x1536', quality: 'medium' });
    });
  }

  it('takes OPENAI_IMAGE_SIZE and OPENAI_IMAGE_QUALITY, and stops the start-up on a value the model refuses', () => {
    const env = { OPENAI_IMAGE_MODEL: 'gpt-image-1' };
    expect(openAIConfigFromEnv({ ...env, OPENAI_IMAGE_SIZE: '1024x1024', OPENAI_IMAGE_QUALITY: 'low' })).toMatchObject({
      imageSize: '1024x1024',
      imageQuality: 'low',
    });
    expect(() => openAIConfigFromEnv({ ...env, OPENAI_IMAGE_SIZE: '1024x1792' })).toThrow(
      /OPENAI_IMAGE_SIZE: gpt-image-1 accepts sizes 1024x1024, 1536x1024, 1024x1536, auto, not '1024x1792'/,
    );
    expect(() => openAIConfigFromEnv({ ...env, OPENAI_IMAGE_QUALITY: 'hd' })).toThrow(/OPENAI_IMAGE_QUALITY/);
  });
});

describe('OpenAI image edits, strict', () => {
  const editConfig = (s: FakeServer, env: Record<string, string>) => ({
    baseUrl: `${s.url}/v1`,
    apiKey: 'k',
    ...openAIEditSettingsFromEnv(env)!,
  });
  const place = (cfg: ReturnType<typeof editConfig>, name: string) =>
    new OpenAIImageEdit(cfg).placeProduct({
      actorPath,
      productPath,
      placement: { position_x: 288, position_y: 600, scale: 0.3, rotation: 0 },
      outPath: path.join(dir, name),
    });

  it('accepts what production sends for gpt-image-1 (input_fidelity high) and gpt-image-1-mini (none)', async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    await place(editConfig(s, { OPENAI_EDIT_MODEL: 'gpt-image-1' }), 'e1.png');
    await place(editConfig(s, { OPENAI_EDIT_MODEL: 'gpt-image-1-mini' }), 'e2.png');
    expect(s.requests).toHaveLength(2);
  });

  it('refuses input_fidelity on gpt-image-1-mini', async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    const cfg = { ...editConfig(s, { OPENAI_EDIT_MODEL: 'gpt-image-1-mini' }), inputFidelity: 'high' };
    const err = await rejectionOf(place(cfg, 'e3.png'));
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('unsupported_parameter');
    expect(() =>
      openAIEditSettingsFromEnv({ OPENAI_EDIT_MODEL: 'gpt-image-1-mini', OPENAI_EDIT_INPUT_FIDELITY: 'high' }),
    ).toThrow(/OPENAI_EDIT_INPUT_FIDELITY: gpt-image-1-mini does not take input_fidelity/);
  });

  it('refuses a mask that is not the size of the first image', async () => {
    const s = await serve(openAIImagesHandler({ portrait, edited: portrait }));
    const form = new FormData();
    form.append('model', 'gpt-image-1');
    form.append('prompt', 'put it in the hand');
    form.append('image[]', new Blob([new Uint8Array(portrait)], { type: 'image/png' }), 'a.png');
    const small = await sharp({ create: { width: 10, height: 10, channels: 4, background: '#0000' } })
      .png()
      .toBuffer();
    form.append('mask', new Blob([new Uint8Array(small)], { type: 'image/png' }), 'm.png');
    const res = await fetch(`${s.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('mask');
  });

  it('refuses DALL·E as the edit model at start-up (one square image cannot hold the product)', () => {
    expect(() => openAIEditSettingsFromEnv({ OPENAI_EDIT_MODEL: 'dall-e-2' })).toThrow(/use gpt-image-1/);
  });
});

describe('OpenAI errors', () => {
  it('does not retry a 429 insufficient_quota (a billing state, not a rate limit)', async () => {
    const s = await serve(() => ({
      status: 429,
      json: {
        error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
      },
    }));
    const err = await rejectionOf(
      requestWithRetry({ provider: 'OpenAI-compatible', url: `${s.url}/v1/x`, json: {}, retry: { baseDelayMs: 10 } }),
    );
    expect((err as ProviderError).code).toBe('insufficient_quota');
    expect(s.requests).toHaveLength(1);
  });
});

describe('ElevenLabs, strict', () => {
  const tts = (s: FakeServer, voice: string, body: Record<string, unknown>) =>
    send(`${s.url}/v1/text-to-speech/${voice}/with-timestamps?output_format=mp3_44100_128`, {
      headers: { 'xi-api-key': 'k' },
      json: { text: 'Hello there', model_id: 'eleven_multilingual_v2', ...body },
    });

  it('refuses the retired Rachel voice with voice_not_found', async () => {
    const s = await serve(elevenLabsHandler({ audio: mp3 }));
    const res = await tts(s, '21m00Tcm4TlvDq8ikWAM', {});
    expect([res.status, res.body.detail.status]).toEqual([404, 'voice_not_found']);
  });

  it('refuses an unknown model, a text over the model limit and a speed outside 0.7–1.2', async () => {
    const s = await serve(elevenLabsHandler({ audio: mp3 }));
    const voice = ELEVENLABS_VOICES.female.american;
    expect((await tts(s, voice, { model_id: 'eleven_monolingual_v0' })).body.detail.status).toBe('model_not_found');
    expect((await tts(s, voice, { text: 'a'.repeat(10_001) })).body.detail.status).toBe('text_too_long');
    const slow = await tts(s, voice, { voice_settings: { speed: 0.5 } });
    expect(slow.status).toBe(422);
    expect(slow.body.detail[0].loc).toEqual(['body', 'voice_settings', 'speed']);
  });

  it('serves every default voice of the adapter, and production speech is accepted', async () => {
    for (const table of Object.values(ELEVENLABS_VOICES)) {
      for (const id of Object.values(table)) expect(FAKE_ELEVENLABS_VOICES[id!]).toBeDefined();
    }
    const s = await serve(elevenLabsHandler({ audio: mp3 }));
    const cfg = elevenLabsConfigFromEnv({ ELEVENLABS_API_KEY: 'k', ELEVENLABS_BASE_URL: s.url })!;
    const out = await new ElevenLabsVoice(cfg).synthesize(
      { text: 'Hi there', language: 'english', accent: 'american', gender: 'male', speed: 1.2 },
      path.join(dir, 'el'),
    );
    expect(out.words.map((w) => w.word)).toEqual(['Hi', 'there']);
  });
});

describe('fal, strict', () => {
  async function falServers() {
    const cdn = await serve(() => ({ headers: { 'content-type': 'video/mp4' }, body: clip }));
    const fal = await serve(falQueueHandler({ videoUrl: `${cdn.url}/out.mp4`, duration: 1 }));
    return { cdn, fal };
  }
  /** Submit, then read the result as the adapter would (status → result). */
  async function resultOf(fal: FakeServer, model: string, input: Record<string, unknown>) {
    const headers = { authorization: 'Key k' };
    const sub = await send(`${fal.url}/${model}`, { headers, json: input });
    if (sub.status !== 200) return sub;
    await send(sub.body.status_url, { headers });
    return send(sub.body.response_url, { headers });
  }
  async function uploaded(fal: FakeServer, file: string, type: string): Promise<string> {
    const init = await send(`${fal.url}/storage/upload/initiate?storage_type=fal-cdn-v3`, {
      headers: { authorization: 'Key k' },
      json: { content_type: type, file_name: path.basename(file) },
    });
    await fetch(init.body.upload_url, { method: 'PUT', body: new Uint8Array(await readFile(file)) });
    return init.body.file_url;
  }

  it('refuses data URIs on the result with a 422 detail (URLs are what every model takes)', async () => {
    const { fal } = await falServers();
    const res = await resultOf(fal, 'fal-ai/bytedance/omnihuman', {
      image_url: 'data:image/png;base64,AAAA',
      audio_url: 'data:audio/wav;base64,AAAA',
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'image_url']);
  });

  it('refuses OmniHuman audio of 30 s or more, and takes it at 720p on v1.5', async () => {
    const { fal } = await falServers();
    const image = await uploaded(fal, actorPath, 'image/png');
    const audio = await uploaded(fal, longWav, 'audio/wav');
    const v1 = await resultOf(fal, 'fal-ai/bytedance/omnihuman', { image_url: image, audio_url: audio });
    expect(v1.status).toBe(422);
    expect(v1.body.detail[0].msg).toMatch(/under 30 seconds/);
    const v15 = await resultOf(fal, 'fal-ai/bytedance/omnihuman/v1.5', {
      image_url: image,
      audio_url: audio,
      resolution: '720p',
    });
    expect(v15.status).toBe(200);
  });

  it('refuses VEED Fabric without its resolution, and an unknown model on submit', async () => {
    const { fal } = await falServers();
    const image = await uploaded(fal, actorPath, 'image/png');
    const audio = await uploaded(fal, shortWav, 'audio/wav');
    const fabric = await resultOf(fal, 'veed/fabric-1.0', { image_url: image, audio_url: audio });
    expect([fabric.status, fabric.body.detail[0].loc[1]]).toEqual([422, 'resolution']);
    const unknown = await resultOf(fal, 'fal-ai/no-such-model', { image_url: image, audio_url: audio });
    expect(unknown.status).toBe(404);
  });

  it('refuses a cancel once the request has started (fal cancels only queued requests)', async () => {
    const { fal } = await falServers();
    const headers = { authorization: 'Key k' };
    const sub = await send(`${fal.url}/fal-ai/sync-lipsync`, { headers, json: {} });
    expect((await send(sub.body.cancel_url, { method: 'PUT', headers })).status).toBe(202);
    await send(sub.body.status_url, { headers });
    expect((await send(sub.body.cancel_url, { method: 'PUT', headers })).status).toBe(400);
  });

  it('accepts what production sends from the environment: uploads, then URLs', async () => {
    const { fal } = await falServers();
    const cfg = falConfigFromEnv({ FAL_KEY: 'k', FAL_BASE_URL: fal.url, FAL_STORAGE_URL: fal.url })!;
    expect(cfg.maxAudioSec).toBe(29);
    const res = await new FalLipSync({ ...cfg, pollIntervalMs: 10 }).lipSync({
      imagePath: actorPath,
      audioPath: shortWav,
      outPath: path.join(dir, 'talking.mp4'),
    });
    expect(res.usage.seconds).toBe(1);
    expect(fal.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`).slice(0, 5)).toEqual([
      'POST /storage/upload/initiate',
      'PUT /__upload/up-1',
      'POST /storage/upload/initiate',
      'PUT /__upload/up-2',
      'POST /fal-ai/bytedance/omnihuman',
    ]);
  });
});

describe('Gemini, strict', () => {
  it('refuses an aspect ratio the model does not make, and more than 3 images', async () => {
    const s = await serve(geminiImageEditHandler({ image: portrait }));
    const url = `${s.url}/v1beta/models/gemini-2.5-flash-image:generateContent`;
    const img = { inline_data: { mime_type: 'image/png', data: 'AAAA' } };
    const headers = { 'x-goog-api-key': 'k' };
    const ratio = await send(url, {
      headers,
      json: { contents: [{ parts: [{ text: 'x' }, img] }], generationConfig: { imageConfig: { aspectRatio: '9:17' } } },
    });
    expect([ratio.status, ratio.body.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    const many = await send(url, { headers, json: { contents: [{ parts: [{ text: 'x' }, img, img, img, img] }] } });
    expect(many.status).toBe(400);
  });
});
