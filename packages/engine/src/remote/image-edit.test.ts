import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf, startFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { ProviderError } from './http.ts';
import { geminiImageAnswer, geminiImageEditHandler, tooManyRequestsOnce } from './provider-fakes.ts';
import {
  GEMINI_RETRY,
  GeminiImageEdit,
  OpenAIImageEdit,
  geminiConfigFromEnv,
  placementMask,
  placementPrompt,
  type GeminiConfig,
  type OpenAIEditConfig,
} from './image-edit.ts';

const OPENAI_KEY = 'sk-test-edit-0123456789';
const GEMINI_KEY = 'AIzaSy-test-gemini-0123456789';
const FAST_RETRY = { baseDelayMs: 20, maxDelayMs: 5_000 };
// A 200x300 product drawn at half size, centred left of middle at chest height, tilted 15°.
const PLACEMENT = { position_x: 200, position_y: 560, scale: 0.5, rotation: 15 };

let dir: string;
let actorPath: string;
let productPath: string;
let editedPng: Buffer;
let server: FakeServer | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-edit-'));
  actorPath = path.join(dir, 'actor.png');
  await sharp({ create: { width: 720, height: 1280, channels: 3, background: '#d9b99b' } })
    .png()
    .toFile(actorPath);
  // A cut-out: an opaque bottle shape in the middle of a transparent canvas.
  productPath = path.join(dir, 'product.png');
  const bottle = await sharp({ create: { width: 120, height: 260, channels: 4, background: '#2a6f97' } })
    .png()
    .toBuffer();
  await sharp({ create: { width: 200, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: bottle, left: 40, top: 20 }])
    .png()
    .toFile(productPath);
  // What a provider returns: a 2:3 portrait (OpenAI 1024x1536).
  editedPng = await sharp({ create: { width: 1024, height: 1536, channels: 3, background: '#8fbc8f' } })
    .png()
    .toBuffer();
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(handler: (req: RecordedRequest, n: number) => FakeReply | Promise<FakeReply>) {
  let n = 0;
  server = await startFakeServer((req) => handler(req, n++));
  return server.url;
}

/** Reads a recorded multipart body the way a server would. */
function formOf(req: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(req.body), {
    headers: { 'content-type': String(req.headers['content-type']) },
  }).formData();
}

async function pngOf(entry: unknown) {
  expect(entry).toBeInstanceOf(Blob);
  const buf = Buffer.from(await (entry as Blob).arrayBuffer());
  return { buf, meta: await sharp(buf).metadata() };
}

const openAIOk: FakeReply = {
  json: {
    created: 1713833628,
    data: [{ b64_json: '' }],
    usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50 },
  },
};

describe('OpenAI-compatible /images/edits', () => {
  function config(url: string): OpenAIEditConfig {
    return { baseUrl: `${url}/v1`, apiKey: OPENAI_KEY, model: 'gpt-image-1', quality: 'medium', retry: FAST_RETRY };
  }

  it('sends the actor and the cut-out as image[], a mask over the hand area and the placement as words', async () => {
    const url = await serve(() => ({
      json: { ...(openAIOk.json as object), data: [{ b64_json: editedPng.toString('base64') }] },
    }));
    const outPath = path.join(dir, 'out', 'held.png');
    const res = await new OpenAIImageEdit(config(url)).placeProduct({
      actorPath,
      productPath,
      placement: PLACEMENT,
      outPath,
    });
    const req = server!.requests[0]!;
    expect(`${req.method} ${req.path}`).toBe('POST /v1/images/edits');
    expect(req.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(String(req.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(req);
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('size')).toBe('1024x1536');
    expect(form.get('quality')).toBe('medium');
    // Keeps the face and the label closer to the inputs; gpt-image-1 takes it.
    expect(form.get('input_fidelity')).toBe('high');
    expect(form.get('n')).toBe('1');
    // gpt-image-* reject response_format.
    expect(form.has('response_format')).toBe(false);
    const prompt = String(form.get('prompt'));
    expect(prompt).toContain('at chest height, on the left of the picture');
    expect(prompt).toContain('product centre about 35% from the left and 55% from the top');
    expect(prompt).toContain('tilted about 15 degrees clockwise');
    expect(prompt).toContain('Do not make the person resemble any real, named or famous individual.');

    const images = form.getAll('image[]');
    expect(images).toHaveLength(2);
    const actor = await pngOf(images[0]!);
    expect([actor.meta.format, actor.meta.width, actor.meta.height]).toEqual(['png', 576, 1024]);
    const product = await pngOf(images[1]!);
    // Trimmed to the bottle's own pixels, alpha kept.
    expect([product.meta.width, product.meta.height, product.meta.hasAlpha]).toEqual([120, 260, true]);

    const mask = await pngOf(form.get('mask'));
    expect([mask.meta.width, mask.meta.height, mask.meta.hasAlpha]).toEqual([576, 1024, true]);
    const { data, info } = await sharp(mask.buf).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    expect(alphaAt(200, 560)).toBe(0); // the product: repaint
    expect(alphaAt(5, 5)).toBe(255); // the face and background: keep
    expect(alphaAt(570, 1000)).toBe(255);

    expect(res.usage).toEqual({ provider: 'openai', stage: 'placement', model: 'gpt-image-1', images: 1 });
    const out = await sharp(outPath).metadata();
    expect([out.format, out.width, out.height]).toEqual(['png', 576, 1024]);
  });

  it("asks a compatible server's own model for base64, sends no quality or fidelity, and can leave the mask out", async () => {
    const url = await serve(() => ({ json: { data: [{ b64_json: editedPng.toString('base64') }] } }));
    await new OpenAIImageEdit({
      ...config(url),
      model: 'qwen-image-edit',
      mask: false,
      quality: undefined,
    }).placeProduct({
      actorPath,
      productPath,
      placement: PLACEMENT,
      outPath: path.join(dir, 'dalle.png'),
    });
    const form = await formOf(server!.requests[0]!);
    expect(form.get('response_format')).toBe('b64_json');
    expect(form.has('mask')).toBe(false);
    expect(form.has('quality')).toBe(false);
    expect(form.has('input_fidelity')).toBe(false);
  });

  it('retries a 429 after Retry-After, sending the same form again', async () => {
    const url = await serve(
      tooManyRequestsOnce(
        {
          error: {
            message: 'Rate limit reached for images per minute',
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
        },
        () => ({ json: { data: [{ b64_json: editedPng.toString('base64') }] } }),
      ),
    );
    await new OpenAIImageEdit(config(url)).placeProduct({
      actorPath,
      productPath,
      placement: PLACEMENT,
      outPath: path.join(dir, 'retried.png'),
    });
    const [a, b] = server!.requests;
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(950);
    expect((await formOf(b!)).getAll('image[]')).toHaveLength(2);
  });

  it('surfaces a moderation refusal at once, without the key', async () => {
    const url = await serve(() => ({
      status: 400,
      json: {
        error: {
          message: `Your request was rejected by the safety system. key=${OPENAI_KEY}`,
          type: 'image_generation_user_error',
          code: 'moderation_blocked',
        },
      },
    }));
    const outPath = path.join(dir, 'refused.png');
    const err = await rejectionOf(
      new OpenAIImageEdit(config(url)).placeProduct({ actorPath, productPath, placement: PLACEMENT, outPath }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('moderation_blocked');
    expect(err.message).toMatch(/OpenAI-compatible error 400 on POST .*\/v1\/images\/edits: Your request was rejected/);
    expect(err.message).not.toContain(OPENAI_KEY);
    expect(server!.requests).toHaveLength(1);
    await expect(stat(outPath)).rejects.toThrow();
  });

  it('does not resend a generation after a timeout (it may have been made and billed)', async () => {
    const url = await serve(() => ({ delayMs: 400, json: { data: [] } }));
    const err = await rejectionOf(
      new OpenAIImageEdit({ ...config(url), timeoutMs: 100 }).placeProduct({
        actorPath,
        productPath,
        placement: PLACEMENT,
        outPath: path.join(dir, 'slow.png'),
      }),
    );
    expect(err.message).toMatch(/no response within 100 ms/);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('Gemini generateContent image edit', () => {
  function config(url: string): GeminiConfig {
    return { apiKey: GEMINI_KEY, baseUrl: `${url}/v1beta`, model: 'gemini-2.5-flash-image', retry: FAST_RETRY };
  }

  it('sends the prompt and both pictures as inline_data parts and reads the image part back', async () => {
    const url = await serve(() => ({
      json: geminiImageAnswer(editedPng, 'gemini-2.5-flash-image', 'resp-77'),
    }));
    const outPath = path.join(dir, 'gemini.png');
    const res = await new GeminiImageEdit(config(url)).placeProduct({
      actorPath,
      productPath,
      placement: PLACEMENT,
      outPath,
    });
    const req = server!.requests[0]!;
    expect(`${req.method} ${req.path}`).toBe('POST /v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(req.path).not.toContain('key=');
    const body = req.json();
    expect(body.generationConfig).toEqual({ responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '9:16' } });
    const parts = body.contents[0].parts;
    expect(parts).toHaveLength(3);
    expect(parts[0].text).toContain('Make the person hold this exact product');
    for (const p of parts.slice(1)) expect(p.inline_data.mime_type).toBe('image/png');
    const actor = await sharp(Buffer.from(parts[1].inline_data.data, 'base64')).metadata();
    expect([actor.width, actor.height]).toEqual([576, 1024]);
    expect(res.usage).toEqual({
      provider: 'gemini',
      stage: 'placement',
      model: 'gemini-2.5-flash-image',
      images: 1,
      requestId: 'resp-77',
    });
    const out = await sharp(outPath).metadata();
    expect([out.width, out.height]).toEqual([576, 1024]);
  });

  it('says why when the model answers without an image (blocked prompt, image safety)', async () => {
    const url = await serve((_req, n) =>
      n === 0
        ? { json: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } }
        : { json: { candidates: [{ content: { parts: [] }, finishReason: 'IMAGE_SAFETY' }] } },
    );
    const edit = new GeminiImageEdit(config(url));
    const req = { actorPath, productPath, placement: PLACEMENT, outPath: path.join(dir, 'blocked.png') };
    expect((await rejectionOf(edit.placeProduct(req))).message).toBe(
      'Gemini: gemini-2.5-flash-image returned the prompt was blocked (PROHIBITED_CONTENT)',
    );
    expect((await rejectionOf(edit.placeProduct(req))).message).toBe(
      'Gemini: gemini-2.5-flash-image returned no image (IMAGE_SAFETY)',
    );
  });

  it('waits for the RetryInfo delay Google names on a 429, and at least the floor when it names none', async () => {
    let n = 0;
    const url = await serve((req: RecordedRequest) => {
      n++;
      if (n === 1) {
        return {
          status: 429,
          json: {
            error: {
              code: 429,
              message: 'Quota exceeded.',
              status: 'RESOURCE_EXHAUSTED',
              details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
            },
          },
        };
      }
      if (n === 2)
        return { status: 429, json: { error: { code: 429, message: 'Busy', status: 'RESOURCE_EXHAUSTED' } } };
      return geminiImageEditHandler({ image: editedPng })(req);
    });
    await new GeminiImageEdit({ ...config(url), retry: { ...FAST_RETRY, minRateLimitDelayMs: 600 } }).placeProduct({
      actorPath,
      productPath,
      placement: PLACEMENT,
      outPath: path.join(dir, 'retry-info.png'),
    });
    const [a, b, c] = server!.requests;
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(950);
    expect(c!.at - b!.at).toBeGreaterThanOrEqual(580);
  });

  it('keeps a 10 s floor between Gemini 429 retries by default', () => {
    expect(GEMINI_RETRY).toEqual({ minRateLimitDelayMs: 10_000, maxDelayMs: 60_000 });
  });

  it('retries RESOURCE_EXHAUSTED and gives up after 3 attempts with Google’s message', async () => {
    const url = await serve(() => ({
      status: 429,
      json: {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
        },
      },
    }));
    const err = await rejectionOf(
      new GeminiImageEdit({ ...config(url), retry: { ...FAST_RETRY, minRateLimitDelayMs: 20 } }).placeProduct({
        actorPath,
        productPath,
        placement: PLACEMENT,
        outPath: path.join(dir, 'quota.png'),
      }),
    );
    expect(err.message).toMatch(/Gemini error 429 .*Resource has been exhausted.*gave up after 3 attempts/);
    expect((err as ProviderError).code).toBe('RESOURCE_EXHAUSTED');
    expect(server!.requests).toHaveLength(3);
  });

  it('is on only with GEMINI_API_KEY', () => {
    expect(geminiConfigFromEnv({})).toBeNull();
    expect(geminiConfigFromEnv({ GEMINI_API_KEY: 'k' })).toEqual({
      apiKey: 'k',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      model: 'gemini-2.5-flash-image',
    });
  });
});

describe('placement in words and mask', () => {
  it('describes right, face height, upright and anticlockwise', async () => {
    expect(placementPrompt({ cx: 500, cy: 300, width: 100, height: 200, rotation: 0 })).toContain(
      'at face height, on the right of the picture',
    );
    expect(placementPrompt({ cx: 288, cy: 800, width: 100, height: 200, rotation: -20 })).toContain(
      'tilted about 20 degrees anticlockwise',
    );
    const mask = await sharp(await placementMask({ cx: 288, cy: 512, width: 100, height: 200 })).metadata();
    expect([mask.width, mask.height]).toEqual([576, 1024]);
  });
});
