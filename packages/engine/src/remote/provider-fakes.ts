/**
 * Local stand-ins for the paid providers, speaking their documented wire formats, for tests outside this package
 * (server API tests, e2e). Each is a handler for `startFakeServer`; requests are recorded there for assertions.
 * Not used in production code. Imported as `@hookreel/engine/testing`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { mediaDurationSec } from '../util/media.ts';
import type { FakeReply, RecordedRequest } from './fake-server.ts';

export { rejectionOf, startFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-server.ts';
/** Test audio: a real PCM WAV from samples. */
export { pcmWav } from '../util/wav.ts';

/**
 * Voices the fake ElevenLabs serves: the current premade voices (legacy ones such as Rachel and Adam were retired
 * in 2026 and are absent, as they are from a new account's library). Ids from ElevenLabs' voice library.
 */
export const FAKE_ELEVENLABS_VOICES: Record<string, string> = {
  EXAVITQu4vr4xnSDxMaL: 'Sarah',
  FGY2WhTYpPnrIDTdsKH5: 'Laura',
  Xb7hH8MSUJpSbSDYk0k2: 'Alice',
  cgSgspJ2msm6clMCkdW9: 'Jessica',
  pFZP5JQG7iQjIQuC4Bku: 'Lily',
  TX3LPaxmHKxFdv7VOQHJ: 'Liam',
  JBFqnCBsd6RMkjVDRZzb: 'George',
  IKne3meq5aSn9XLyUdCD: 'Charlie',
  CwhRBWXzGAHq8TQ4Fs17: 'Roger',
  N2lVS1w4EtoT3dr4eOWO: 'Callum',
};
/** Text-to-speech models and the longest text each takes in one request (ElevenLabs' model pages). */
export const FAKE_ELEVENLABS_MODELS: Record<string, number> = {
  eleven_multilingual_v2: 10_000,
  eleven_v3: 5_000,
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2_5: 40_000,
};

/**
 * ElevenLabs, strict: `POST /v1/text-to-speech/{voice_id}/with-timestamps` answers `audio` (any audio ffmpeg reads,
 * e.g. an MP3) and a character alignment spreading the text over 0.1 s + 0.05 s per character. It refuses what
 * ElevenLabs refuses, in its `{detail: {status, message}}` shape: no key (401), a voice not in the library (404
 * voice_not_found; `voices` adds ids, e.g. a cloned voice), an unknown model (400 model_not_found), a text longer
 * than the model takes (400 text_too_long), a speed outside 0.7–1.2 (422). Also `GET /v1/voices/{id}`,
 * `GET /v1/models` and `GET /v1/user` (what `providers:check` reads). `fail` replaces the speech answer.
 */
export function elevenLabsHandler(opts: { audio: Buffer; fail?: FakeReply; voices?: string[] }) {
  const voices = new Set([...Object.keys(FAKE_ELEVENLABS_VOICES), ...(opts.voices ?? [])]);
  const detail = (status: number, code: string, message: string): FakeReply => ({
    status,
    json: { detail: { status: code, message } },
  });
  return (req: RecordedRequest): FakeReply => {
    const route = req.path.split('?')[0]!;
    if (!req.headers['xi-api-key']) return detail(401, 'needs_authorization', 'Missing xi-api-key');
    if (req.headers['xi-api-key'] === 'bad-key') return detail(401, 'invalid_api_key', 'Invalid API key');
    const voiceGet = /^\/v1\/voices\/([^/]+)$/.exec(route);
    if (req.method === 'GET' && voiceGet) {
      const id = decodeURIComponent(voiceGet[1]!);
      if (!voices.has(id)) return detail(404, 'voice_not_found', `A voice with the voice_id ${id} was not found.`);
      return { json: { voice_id: id, name: FAKE_ELEVENLABS_VOICES[id] ?? 'Custom', category: 'premade' } };
    }
    if (req.method === 'GET' && route === '/v1/models') {
      return {
        json: Object.entries(FAKE_ELEVENLABS_MODELS).map(([model_id, max]) => ({
          model_id,
          can_do_text_to_speech: true,
          maximum_text_length_per_request: max,
        })),
      };
    }
    if (req.method === 'GET' && route === '/v1/user') {
      return { json: { subscription: { tier: 'creator', character_count: 1200, character_limit: 100000 } } };
    }
    const tts = /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/.exec(route);
    if (req.method !== 'POST' || !tts) return detail(404, 'not_found', `No route ${req.path}`);
    if (opts.fail) return opts.fail;
    const voiceId = decodeURIComponent(tts[1]!);
    if (!voices.has(voiceId)) {
      return detail(404, 'voice_not_found', `A voice with the voice_id ${voiceId} was not found.`);
    }
    const body = req.json<{ text?: string; model_id?: string; voice_settings?: { speed?: number } }>();
    const model = body.model_id ?? 'eleven_multilingual_v2';
    const max = FAKE_ELEVENLABS_MODELS[model];
    if (max === undefined) return detail(400, 'model_not_found', `A model with model ID ${model} does not exist.`);
    const text = String(body.text ?? '');
    if (!text.trim()) return { status: 422, json: { detail: [{ loc: ['body', 'text'], msg: 'Field required' }] } };
    if (text.length > max) {
      return detail(400, 'text_too_long', `Text is ${text.length} characters; ${model} takes at most ${max}.`);
    }
    const speed = body.voice_settings?.speed;
    if (speed !== undefined && (speed < 0.7 || speed > 1.2)) {
      return {
        status: 422,
        json: { detail: [{ loc: ['body', 'voice_settings', 'speed'], msg: 'Input should be between 0.7 and 1.2' }] },
      };
    }
    const characters = [...text];
    const alignment = {
      characters,
      character_start_times_seconds: characters.map((_, i) => Math.round((0.1 + i * 0.05) * 1000) / 1000),
      character_end_times_seconds: characters.map((_, i) => Math.round((0.1 + (i + 1) * 0.05) * 1000) / 1000),
    };
    return {
      headers: { 'request-id': `el-${req.at}` },
      json: { audio_base64: opts.audio.toString('base64'), alignment, normalized_alignment: alignment },
    };
  };
}

/** What a fal model takes, from its model page: the media field, required fields and the longest audio. */
export interface FakeFalModel {
  media: 'image_url' | 'video_url';
  /** Required extra fields and their allowed values. */
  required?: Record<string, readonly string[]>;
  /** Longest audio in seconds for this input (exclusive: "under 30 s"), or none. */
  maxAudioSec?: (input: Record<string, unknown>) => number | undefined;
}

export const FAKE_FAL_MODELS: Record<string, FakeFalModel> = {
  'fal-ai/bytedance/omnihuman': { media: 'image_url', maxAudioSec: () => 30 },
  'fal-ai/bytedance/omnihuman/v1.5': {
    media: 'image_url',
    maxAudioSec: (input) => (input.resolution === '720p' ? 60 : 30),
  },
  'fal-ai/kling-video/v1/standard/ai-avatar': { media: 'image_url' },
  'fal-ai/kling-video/v1/pro/ai-avatar': { media: 'image_url' },
  'veed/fabric-1.0': { media: 'image_url', required: { resolution: ['480p', '720p'] } },
  'fal-ai/sync-lipsync': { media: 'video_url' },
};

/**
 * fal, strict, as one server: the queue (`POST /{model}` → `{request_id, status_url, response_url, cancel_url}`
 * under the app id, one IN_PROGRESS then COMPLETED, result `{video: {url}, duration}` pointing at `videoUrl`), and
 * the storage upload (`POST /storage/upload/initiate` → `{upload_url, file_url}`, `PUT upload_url`, `GET file_url`).
 * Like fal, the queue takes any submit for a known model and reports a model's refusal on the result: a 422
 * `{detail: [{loc, msg, type}]}` when a media field is missing or not a URL it can fetch (data URIs are refused:
 * fal documents URLs as the input that works for every model), a required field is missing, or the audio is
 * longer than the model takes. An unknown model is a 404 on submit; a missing or wrong key a 401. There is no
 * FAILED status (fal's queue has none). `cancel` answers 202 before the request started, else 400, as fal does.
 */
export function falQueueHandler(opts: { videoUrl: string; duration?: number; models?: Record<string, FakeFalModel> }) {
  const models = { ...FAKE_FAL_MODELS, ...opts.models };
  const polls = new Map<string, number>();
  const outcomes = new Map<string, Promise<FakeReply>>();
  const files = new Map<string, { type: string; body: Buffer | null }>();
  let next = 0;
  const invalid = (field: string, msg: string): FakeReply => ({
    status: 422,
    json: { detail: [{ loc: ['body', field], msg, type: 'value_error' }] },
  });
  const fetchBytes = async (url: string): Promise<Buffer | null> => {
    const own = /\/files\/([^/]+)\//.exec(url);
    if (own && files.has(own[1]!)) return files.get(own[1]!)!.body;
    try {
      const res = await fetch(url);
      return res.ok ? Buffer.from(await res.arrayBuffer()) : null;
    } catch {
      return null;
    }
  };
  const run = async (rules: FakeFalModel, input: Record<string, unknown>): Promise<FakeReply> => {
    for (const field of [rules.media, 'audio_url']) {
      const value = input[field];
      if (typeof value !== 'string') return invalid(field, 'Field required');
      if (!/^https?:\/\//.test(value)) return invalid(field, 'Input should be a valid URL (http or https)');
      if (!(await fetchBytes(value))) return invalid(field, `Could not download the file at ${value}`);
    }
    for (const [field, allowed] of Object.entries(rules.required ?? {})) {
      if (!allowed.includes(String(input[field]))) {
        return invalid(field, `Input should be ${allowed.map((a) => `'${a}'`).join(' or ')}`);
      }
    }
    const max = rules.maxAudioSec?.(input);
    if (max !== undefined) {
      const seconds = await audioSeconds((await fetchBytes(String(input.audio_url)))!);
      if (seconds >= max)
        return invalid('audio_url', `Audio duration must be under ${max} seconds (got ${seconds.toFixed(1)} s)`);
    }
    return { json: { video: { url: opts.videoUrl, content_type: 'video/mp4' }, duration: opts.duration } };
  };
  return async (req: RecordedRequest, server: { url: string }): Promise<FakeReply> => {
    const route = req.path.split('?')[0]!;
    const upload = /^\/__upload\/([^/]+)$/.exec(route);
    if (req.method === 'PUT' && upload) {
      const file = files.get(upload[1]!);
      if (!file) return { status: 403, body: 'Signature expired or invalid' };
      file.body = req.body;
      return { status: 200, body: '' };
    }
    const served = /^\/files\/([^/]+)\//.exec(route);
    if (req.method === 'GET' && served) {
      const file = files.get(served[1]!);
      if (!file?.body) return { status: 404, body: 'Not found' };
      return { headers: { 'content-type': file.type }, body: file.body };
    }
    if (req.headers.authorization?.startsWith('Key ') !== true || req.headers.authorization === 'Key bad-key') {
      return { status: 401, json: { detail: 'No valid Authorization header' } };
    }
    if (req.method === 'POST' && route === '/storage/upload/initiate') {
      const body = req.json<{ content_type?: string; file_name?: string }>();
      if (!body.content_type || !body.file_name) return invalid('file_name', 'Field required');
      const id = `up-${++next}`;
      files.set(id, { type: body.content_type, body: null });
      return {
        json: {
          upload_url: `${server.url}/__upload/${id}`,
          file_url: `${server.url}/files/${id}/${encodeURIComponent(body.file_name)}`,
        },
      };
    }
    const m = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(route);
    if (req.method === 'POST' && !m) {
      const model = route.slice(1);
      const rules = models[model];
      if (!rules) return { status: 404, json: { detail: `Application '${model}' not found` } };
      const id = `fake-${++next}`;
      outcomes.set(id, run(rules, req.json<Record<string, unknown>>()));
      const app = route.split('/').slice(1, 3).join('/');
      const base = `${server.url}/${app}/requests/${id}`;
      return {
        json: { request_id: id, status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` },
      };
    }
    if (!m || !outcomes.has(m[2]!)) return { status: 404, json: { detail: `Request not found: ${req.path}` } };
    const [, , id, tail] = m;
    if (tail === '/status') {
      const n = polls.get(id!) ?? 0;
      polls.set(id!, n + 1);
      return n === 0 ? { status: 202, json: { status: 'IN_PROGRESS' } } : { json: { status: 'COMPLETED' } };
    }
    if (tail === '/cancel') {
      return (polls.get(id!) ?? 0) === 0
        ? { status: 202, json: { status: 'CANCELLATION_REQUESTED' } }
        : { status: 400, json: { status: 'ALREADY_COMPLETED' } };
    }
    return outcomes.get(id!)!;
  };
}

/** Seconds of audio in a file (any format ffprobe reads). */
async function audioSeconds(bytes: Buffer): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fake-fal-'));
  try {
    const file = path.join(dir, 'audio');
    await writeFile(file, bytes);
    return await mediaDurationSec(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** OpenAI image models the fake serves (dall-e-2 and -3 were shut down on 2026-05-12, so they are absent). */
export const FAKE_OPENAI_IMAGE_MODELS = [
  'gpt-image-1',
  'gpt-image-1-mini',
  'gpt-image-1.5',
  'gpt-image-2',
  'chatgpt-image-latest',
];
const GPT_SIZES = ['1024x1024', '1024x1536', '1536x1024', 'auto'];
const GPT_QUALITIES = ['low', 'medium', 'high', 'auto'];

type OpenAIErrorReply = FakeReply & { status: number };
function openAIError(status: number, message: string, param: string | null = null, code: string | null = null) {
  return { status, json: { error: { message, type: 'invalid_request_error', param, code } } } as OpenAIErrorReply;
}
const list = (values: string[]) =>
  `${values
    .slice(0, -1)
    .map((v) => `'${v}'`)
    .join(', ')}, and '${values.at(-1)}'`;

/** The refusal OpenAI sends for these image settings, or null. Rules from the Images API reference. */
function openAIImageRefusal(
  model: string,
  fields: { size?: string; quality?: string; response_format?: string; input_fidelity?: string },
): OpenAIErrorReply | null {
  if (!FAKE_OPENAI_IMAGE_MODELS.includes(model)) {
    return openAIError(
      404,
      `The model '${model}' does not exist or you do not have access to it.`,
      null,
      'model_not_found',
    );
  }
  if (fields.response_format !== undefined) {
    return openAIError(400, "Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
  }
  const size = fields.size ?? 'auto';
  if (model.startsWith('gpt-image-2')) {
    const m = /^(\d+)x(\d+)$/.exec(size);
    const ok =
      size === 'auto' || (m && +m[1]! % 16 === 0 && +m[2]! % 16 === 0 && +m[1]! / +m[2]! <= 3 && +m[2]! / +m[1]! <= 3);
    if (!ok)
      return openAIError(
        400,
        `Invalid value: '${size}'. Width and height must be multiples of 16 with an aspect ratio between 1:3 and 3:1.`,
        'size',
        'invalid_value',
      );
  } else if (!GPT_SIZES.includes(size)) {
    return openAIError(
      400,
      `Invalid value: '${size}'. Supported values are: ${list(GPT_SIZES)}.`,
      'size',
      'invalid_value',
    );
  }
  if (fields.quality !== undefined && !GPT_QUALITIES.includes(fields.quality)) {
    return openAIError(
      400,
      `Invalid value: '${fields.quality}'. Supported values are: ${list(GPT_QUALITIES)}.`,
      'quality',
      'invalid_value',
    );
  }
  if (fields.input_fidelity !== undefined) {
    if (!['gpt-image-1', 'gpt-image-1.5'].includes(model)) {
      return openAIError(
        400,
        `input_fidelity is not supported for model '${model}'.`,
        'input_fidelity',
        'unsupported_parameter',
      );
    }
    if (!['low', 'high'].includes(fields.input_fidelity)) {
      return openAIError(
        400,
        `Invalid value: '${fields.input_fidelity}'. Supported values are: 'low' and 'high'.`,
        'input_fidelity',
        'invalid_value',
      );
    }
  }
  return null;
}

/**
 * OpenAI `POST {base}/images/edits` (multipart), strict: answers `{created, data: [{b64_json}], usage}` with
 * `image` (a PNG). Refuses, in OpenAI's `{error: {message, type, param, code}}` shape, what the API refuses: no
 * bearer key (401), a model it does not serve (404 model_not_found), no prompt, no image or more than 16, a size,
 * quality or input_fidelity the model does not take, `response_format` (GPT image models always answer base64),
 * and a mask that is not a PNG the size of the first image. `fail` replaces the answer.
 */
export function openAIEditsHandler(opts: { image: Buffer; fail?: FakeReply }) {
  return async (req: RecordedRequest): Promise<FakeReply> => {
    if (req.method !== 'POST' || !/\/images\/edits$/.test(req.path.split('?')[0]!)) {
      return openAIError(404, `Invalid URL (${req.method} ${req.path})`);
    }
    if (!req.headers.authorization?.startsWith('Bearer ')) return openAIError(401, 'Missing bearer authentication');
    if (opts.fail) return opts.fail;
    const form = await new Response(new Uint8Array(req.body), {
      headers: { 'content-type': String(req.headers['content-type']) },
    }).formData();
    const text = (k: string) => (form.has(k) ? String(form.get(k)) : undefined);
    const refusal = openAIImageRefusal(text('model') ?? 'dall-e-2', {
      size: text('size'),
      quality: text('quality'),
      response_format: text('response_format'),
      input_fidelity: text('input_fidelity'),
    });
    if (refusal) return refusal;
    const images = form.getAll('image[]');
    if (images.length < 1 || images.length > 16) {
      return openAIError(400, 'Provide between 1 and 16 images as image[].', 'image', 'invalid_value');
    }
    if (!text('prompt')?.trim()) return openAIError(400, "Missing required parameter: 'prompt'.", 'prompt');
    const mask = form.get('mask');
    if (mask instanceof Blob) {
      const first = await sharp(Buffer.from(await (images[0] as Blob).arrayBuffer())).metadata();
      const meta = await sharp(Buffer.from(await mask.arrayBuffer()))
        .metadata()
        .catch(() => null);
      if (meta?.format !== 'png' || meta.width !== first.width || meta.height !== first.height) {
        return openAIError(400, 'Invalid mask: it must be a PNG with the same dimensions as the first image.', 'mask');
      }
    }
    return {
      json: {
        created: Math.floor(req.at / 1000),
        data: [{ b64_json: opts.image.toString('base64') }],
        usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50 },
      },
    };
  };
}

/**
 * OpenAI's image API as one server, strict: `POST {base}/images/generations` (JSON) answers `{created, data:
 * [{b64_json}]}` with `portrait`, refusing what the API refuses (no key, an unknown or retired model, no prompt, a
 * size or quality the model does not take, `response_format`); `GET {base}/models/{id}` answers the model or 404
 * (what `providers:check` reads); everything else is `openAIEditsHandler` answering `edited`.
 */
export function openAIImagesHandler(opts: { portrait: Buffer; edited: Buffer; fail?: FakeReply }) {
  const edits = openAIEditsHandler({ image: opts.edited, fail: opts.fail });
  return async (req: RecordedRequest): Promise<FakeReply> => {
    const route = req.path.split('?')[0]!;
    const modelGet = /\/models\/([^/]+)$/.exec(route);
    if (req.method === 'GET' && modelGet) {
      if (!req.headers.authorization?.startsWith('Bearer ')) return openAIError(401, 'Missing bearer authentication');
      if (req.headers.authorization === 'Bearer bad-key') {
        return openAIError(401, 'Incorrect API key provided: bad-key.', null, 'invalid_api_key');
      }
      const id = decodeURIComponent(modelGet[1]!);
      if (!FAKE_OPENAI_IMAGE_MODELS.includes(id) && !/^(gpt-4|gpt-5|o\d)/.test(id)) {
        return openAIError(404, `The model '${id}' does not exist`, 'model', 'model_not_found');
      }
      return { json: { id, object: 'model', created: 1, owned_by: 'openai' } };
    }
    if (req.method !== 'POST' || !route.endsWith('/images/generations')) return edits(req);
    if (!req.headers.authorization?.startsWith('Bearer ')) return openAIError(401, 'Missing bearer authentication');
    if (opts.fail) return opts.fail;
    const body = req.json<{
      model?: string;
      prompt?: string;
      n?: number;
      size?: string;
      quality?: string;
      response_format?: string;
    }>();
    const refusal = openAIImageRefusal(body.model ?? 'dall-e-2', body);
    if (refusal) return refusal;
    if (!body.prompt?.trim()) return openAIError(400, "Missing required parameter: 'prompt'.", 'prompt');
    return {
      json: {
        created: Math.floor(req.at / 1000),
        data: Array.from({ length: Math.max(1, body.n ?? 1) }, () => ({ b64_json: opts.portrait.toString('base64') })),
        usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50 },
      },
    };
  };
}

/**
 * A handler for the tests' `serve` (given each request and how many came before it): the first request gets 429
 * with `Retry-After: 1` and the provider's `error` body, every later one what `then` answers.
 */
export const tooManyRequestsOnce =
  (error: unknown, then: (req: RecordedRequest) => FakeReply) =>
  (req: RecordedRequest, n: number): FakeReply =>
    n === 0 ? { status: 429, headers: { 'retry-after': '1' }, json: error } : then(req);

/** Gemini's generateContent answer carrying one edited picture (`image`, a PNG), as the model sends it. */
export const geminiImageAnswer = (image: Buffer, modelVersion: string, responseId: string) => ({
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          { text: 'Here is the edited photo.' },
          { inlineData: { mimeType: 'image/png', data: image.toString('base64') } },
        ],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 1800, candidatesTokenCount: 1290, totalTokenCount: 3090 },
  modelVersion,
  responseId,
});

/**
 * Google Gemini's REST `POST {base}/models/{model}:generateContent` for its image model: answers one candidate
 * whose parts are a short text and `image` as `inlineData` (a PNG), with `usageMetadata`, `modelVersion` and
 * `responseId`, as the API does. Refuses a request without the `x-goog-api-key` header (403 PERMISSION_DENIED) or
 * without parts, with an aspect ratio it does not make or more than 3 images (400 INVALID_ARGUMENT), in Google's
 * error shape; `fail` replaces the answer.
 */
/** Aspect ratios gemini-2.5-flash-image makes. */
const GEMINI_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

export function geminiImageEditHandler(opts: { image: Buffer; fail?: FakeReply }) {
  return (req: RecordedRequest): FakeReply => {
    const error = (code: number, status: string, message: string) => ({
      status: code,
      json: { error: { code, message, status } },
    });
    const modelGet = /\/models\/([^/:]+)$/.exec(req.path.split('?')[0]!)?.[1];
    if (req.method === 'GET' && modelGet) {
      if (!req.headers['x-goog-api-key']) return error(403, 'PERMISSION_DENIED', 'Missing API key.');
      if (req.headers['x-goog-api-key'] === 'bad-key') {
        return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      }
      return /^gemini-/.test(modelGet)
        ? { json: { name: `models/${modelGet}`, supportedGenerationMethods: ['generateContent'] } }
        : error(404, 'NOT_FOUND', `models/${modelGet} is not found for API version v1beta`);
    }
    const model = /\/models\/([^/:]+):generateContent$/.exec(req.path.split('?')[0]!)?.[1];
    if (req.method !== 'POST' || !model) return error(404, 'NOT_FOUND', `Not found: ${req.method} ${req.path}`);
    if (!req.headers['x-goog-api-key']) {
      return error(403, 'PERMISSION_DENIED', 'Method doesn\u2019t allow unregistered callers. Please use an API key.');
    }
    if (opts.fail) return opts.fail;
    const body = req.json<{
      contents?: Array<{ parts?: Array<Record<string, unknown>> }>;
      generationConfig?: { imageConfig?: { aspectRatio?: string } };
    }>();
    const parts = body.contents?.[0]?.parts ?? [];
    if (!parts.length) return error(400, 'INVALID_ARGUMENT', 'contents.parts must not be empty');
    const ratio = body.generationConfig?.imageConfig?.aspectRatio;
    if (ratio !== undefined && !GEMINI_RATIOS.includes(ratio)) {
      return error(400, 'INVALID_ARGUMENT', `Unsupported aspect ratio: ${ratio}`);
    }
    if (parts.filter((p) => 'inline_data' in p || 'inlineData' in p).length > 3) {
      return error(400, 'INVALID_ARGUMENT', 'At most 3 input images are supported by this model.');
    }
    return { json: geminiImageAnswer(opts.image, decodeURIComponent(model), `resp-${req.at}`) };
  };
}

// Test photos for the photo actor (a public-domain portrait and photos derived from it in code).
export { ASTRONAUT_PNG, portraitFixture, type PortraitFixture } from '../photo/fixtures.ts';
export { PHOTO_VIDEO_WORDS, photoActorVideo, type PhotoVideoKind } from '../photo/video-fixtures.ts';

// A tiny ONNX model with Piper's signature and its config, to add a voice in tests without downloading one.
export { piperTestConfig, piperTestModel, type TestModelOptions } from '../voice/piper/test-model.ts';
