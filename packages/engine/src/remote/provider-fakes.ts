/**
 * Local stand-ins for the paid providers, speaking their documented wire formats, for tests outside this package
 * (server API tests, e2e). Each is a handler for `startFakeServer`; requests are recorded there for assertions.
 * Not used in production code. Imported as `@hookreel/engine/testing`.
 */
import type { FakeReply, RecordedRequest } from './fake-server.ts';

export { rejectionOf, startFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-server.ts';
/** Test audio: a real PCM WAV from samples. */
export { pcmWav } from '../util/wav.ts';

/**
 * ElevenLabs `POST /v1/text-to-speech/{voice_id}/with-timestamps`: answers with `audio` (any audio ffmpeg reads,
 * e.g. an MP3) and a character alignment spreading the text over 0.1 s + 0.05 s per character. `fail` replaces
 * the answer (e.g. a 401 `{detail:{status,message}}`).
 */
export function elevenLabsHandler(opts: { audio: Buffer; fail?: FakeReply }) {
  return (req: RecordedRequest): FakeReply => {
    if (req.method !== 'POST' || !/^\/v1\/text-to-speech\/[^/]+\/with-timestamps(\?|$)/.test(req.path)) {
      return { status: 404, json: { detail: { status: 'not_found', message: `No route ${req.path}` } } };
    }
    if (!req.headers['xi-api-key']) {
      return { status: 401, json: { detail: { status: 'needs_authorization', message: 'Missing xi-api-key' } } };
    }
    if (opts.fail) return opts.fail;
    const text = String(req.json<{ text?: string }>().text ?? '');
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

/**
 * fal queue API for any model path: submit → {request_id, status_url, response_url, cancel_url} under the app id,
 * one IN_PROGRESS then COMPLETED, and a result `{video: {url}}` pointing at `videoUrl` (serve it from another
 * fake, as fal serves results from its CDN). `fail` is a status answer such as `{status:'FAILED', error:'…'}`.
 */
export function falQueueHandler(opts: { videoUrl: string; duration?: number; failStatus?: unknown }) {
  const polls = new Map<string, number>();
  let next = 0;
  return (req: RecordedRequest, server: { url: string }): FakeReply => {
    if (req.headers.authorization?.startsWith('Key ') !== true) {
      return { status: 401, json: { detail: 'No valid Authorization header' } };
    }
    const m = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(req.path.split('?')[0]!);
    if (req.method === 'POST' && !m) {
      const id = `fake-${++next}`;
      const app = req.path.split('/').slice(1, 3).join('/');
      const base = `${server.url}/${app}/requests/${id}`;
      return {
        json: { request_id: id, status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` },
      };
    }
    if (!m) return { status: 404, json: { detail: `Not found: ${req.path}` } };
    const [, , id, tail] = m;
    if (tail === '/status') {
      const n = polls.get(id!) ?? 0;
      polls.set(id!, n + 1);
      if (opts.failStatus && n >= 1) return { json: opts.failStatus };
      return n === 0 ? { status: 202, json: { status: 'IN_PROGRESS' } } : { json: { status: 'COMPLETED' } };
    }
    if (tail === '/cancel') return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
    return { json: { video: { url: opts.videoUrl, content_type: 'video/mp4' }, duration: opts.duration } };
  };
}

/**
 * OpenAI-compatible `POST {base}/images/edits` (multipart, as gpt-image-1 takes it): answers
 * `{created, data: [{b64_json}], usage}` with `image` (a PNG). Refuses a request without a bearer key, without
 * two `image[]` parts or without a prompt, as the real API would. `fail` replaces the answer.
 */
export function openAIEditsHandler(opts: { image: Buffer; fail?: FakeReply }) {
  return async (req: RecordedRequest): Promise<FakeReply> => {
    const error = (status: number, message: string, type = 'invalid_request_error') => ({
      status,
      json: { error: { message, type, param: null, code: null } },
    });
    if (req.method !== 'POST' || !/\/images\/edits$/.test(req.path.split('?')[0]!)) {
      return error(404, `Invalid URL (${req.method} ${req.path})`);
    }
    if (!req.headers.authorization?.startsWith('Bearer ')) return error(401, 'Missing bearer authentication');
    if (opts.fail) return opts.fail;
    const form = await new Response(new Uint8Array(req.body), {
      headers: { 'content-type': String(req.headers['content-type']) },
    }).formData();
    if (form.getAll('image[]').length !== 2) return error(400, 'Expected two image[] parts');
    if (!String(form.get('prompt') ?? '').trim()) return error(400, "Missing required parameter: 'prompt'.");
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
 * OpenAI-compatible image API as one server: `POST {base}/images/generations` (JSON `{model, prompt, n, size}`)
 * answers `{created, data: [{b64_json}]}` with `portrait`, refusing a request without a bearer key or a prompt as
 * the real API does; `POST {base}/images/edits` is `openAIEditsHandler` answering `edited`.
 */
export function openAIImagesHandler(opts: { portrait: Buffer; edited: Buffer; fail?: FakeReply }) {
  const edits = openAIEditsHandler({ image: opts.edited, fail: opts.fail });
  return async (req: RecordedRequest): Promise<FakeReply> => {
    if (req.method !== 'POST' || !req.path.split('?')[0]!.endsWith('/images/generations')) return edits(req);
    const error = (status: number, message: string) => ({
      status,
      json: { error: { message, type: 'invalid_request_error', param: null, code: null } },
    });
    if (!req.headers.authorization?.startsWith('Bearer ')) return error(401, 'Missing bearer authentication');
    if (opts.fail) return opts.fail;
    const body = req.json<{ prompt?: string; n?: number }>();
    if (!body.prompt?.trim()) return error(400, "Missing required parameter: 'prompt'.");
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
 * Google Gemini's REST `POST {base}/models/{model}:generateContent` for its image model: answers one candidate
 * whose parts are a short text and `image` as `inlineData` (a PNG), with `usageMetadata`, `modelVersion` and
 * `responseId`, as the API does. Refuses a request without the `x-goog-api-key` header (403 PERMISSION_DENIED) or
 * without parts (400 INVALID_ARGUMENT), in Google's error shape; `fail` replaces the answer.
 */
export function geminiImageEditHandler(opts: { image: Buffer; fail?: FakeReply }) {
  return (req: RecordedRequest): FakeReply => {
    const error = (code: number, status: string, message: string) => ({
      status: code,
      json: { error: { code, message, status } },
    });
    const model = /\/models\/([^/:]+):generateContent$/.exec(req.path.split('?')[0]!)?.[1];
    if (req.method !== 'POST' || !model) return error(404, 'NOT_FOUND', `Not found: ${req.method} ${req.path}`);
    if (!req.headers['x-goog-api-key']) {
      return error(403, 'PERMISSION_DENIED', 'Method doesn\u2019t allow unregistered callers. Please use an API key.');
    }
    if (opts.fail) return opts.fail;
    const body = req.json<{ contents?: Array<{ parts?: unknown[] }> }>();
    if (!body.contents?.[0]?.parts?.length) return error(400, 'INVALID_ARGUMENT', 'contents.parts must not be empty');
    return {
      json: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Here is the edited photo.' },
                { inlineData: { mimeType: 'image/png', data: opts.image.toString('base64') } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 1800, candidatesTokenCount: 1290, totalTokenCount: 3090 },
        modelVersion: decodeURIComponent(model),
        responseId: `resp-${req.at}`,
      },
    };
  };
}

// Test photos for the photo actor (a public-domain portrait and photos derived from it in code).
export { ASTRONAUT_PNG, portraitFixture, type PortraitFixture } from '../photo/fixtures.ts';
export { PHOTO_VIDEO_WORDS, photoActorVideo, type PhotoVideoKind } from '../photo/video-fixtures.ts';
