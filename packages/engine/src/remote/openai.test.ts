import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription } from '../actors/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { ffprobe } from '../util/media.ts';
import { rejectionOf, startFakeServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { generatedMedia } from './generated-media.ts';
import { ProviderError } from './http.ts';
import { tooManyRequestsOnce } from './provider-fakes.ts';
import {
  OpenAIImages,
  OpenAIVision,
  OpenAIVoice,
  characterPrompt,
  estimateWordTimings,
  parseProductAnalysis,
  type OpenAIConfig,
} from './openai.ts';

const KEY = 'sk-test-0123456789abcdef';
const FAST_RETRY = { baseDelayMs: 20, maxDelayMs: 5_000 };

let dir: string;
let toneWav: Buffer;
let paddedWav: Buffer;
let server: FakeServer | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-openai-'));
  // What OpenAI sends back: 24 kHz mono WAV.
  toneWav = await generatedMedia(
    path.join(dir, 'tone.wav'),
    ['sine=frequency=440:duration=1.5'],
    ['-ar', '24000', '-ac', '1'],
  );
  // 0.5 s silence, 1.5 s tone, 0.5 s silence: the estimate must sit inside the speech.
  paddedWav = await generatedMedia(
    path.join(dir, 'padded.wav'),
    ['sine=frequency=440:duration=1.5'],
    ['-af', 'adelay=500,apad=pad_dur=0.5', '-ar', '24000', '-ac', '1'],
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(
  handler: (req: RecordedRequest, n: number) => FakeReply | Promise<FakeReply>,
): Promise<OpenAIConfig> {
  let n = 0;
  server = await startFakeServer((req) => handler(req, n++));
  return {
    baseUrl: `${server.url}/v1`,
    apiKey: KEY,
    ttsModel: 'gpt-4o-mini-tts',
    imageModel: 'gpt-image-1',
    visionModel: 'gpt-4o-mini',
    retry: FAST_RETRY,
  };
}

const SCRIPT = 'I tried this serum for seven days, and honestly? Wow.';

describe('OpenAI-compatible speech', () => {
  it('posts to /audio/speech and returns a 48 kHz mono WAV with ordered, estimated word timings', async () => {
    const cfg = await serve(() => ({ headers: { 'content-type': 'audio/wav' }, body: toneWav }));
    const out = await new OpenAIVoice(cfg).synthesize(
      { text: SCRIPT, language: 'english', accent: 'british', gender: 'female' },
      path.join(dir, 'tts-1'),
    );
    const [req] = server!.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/audio/speech');
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.accept).toBe('*/*');
    const body = req!.json();
    expect(body).toMatchObject({ model: 'gpt-4o-mini-tts', voice: 'nova', input: SCRIPT, response_format: 'wav' });
    expect(body.instructions).toMatch(/English.*british accent/);
    // Normal speed: the field is left out for servers that lack it.
    expect(body.speed).toBeUndefined();
    expect(out.usage).toEqual({
      provider: 'openai',
      stage: 'voice',
      model: 'gpt-4o-mini-tts',
      characters: SCRIPT.length,
    });

    const audio = (await ffprobe(out.wavPath)).streams[0]!;
    expect(audio.sample_rate).toBe('48000');
    expect(audio.channels).toBe(1);
    expect(out.durationSec).toBeCloseTo(1.5, 1);
    expect(out.voice).toBe('openai:gpt-4o-mini-tts:nova');
    expect(out.words.map((w) => w.word)).toEqual(SCRIPT.split(' '));
    for (let i = 0; i < out.words.length; i++) {
      const w = out.words[i]!;
      expect(w.endSec).toBeGreaterThan(w.startSec);
      expect(w.endSec).toBeLessThanOrEqual(out.durationSec + 1e-6);
      if (i > 0) expect(w.startSec).toBeGreaterThanOrEqual(out.words[i - 1]!.endSec);
    }
    // Proportional to length: "serum" (5 letters) lasts longer than "I" (1 letter).
    const len = (w: { startSec: number; endSec: number }) => w.endSec - w.startSec;
    expect(len(out.words[3]!)).toBeGreaterThan(len(out.words[0]!) * 3);
  });

  it('sends the voice speed, kept inside 0.8–1.2', async () => {
    const cfg = await serve(() => ({ body: toneWav }));
    const voice = new OpenAIVoice(cfg);
    await voice.synthesize(
      { text: 'Fast one', language: 'english', accent: 'american', gender: 'male', speed: 1.1 },
      path.join(dir, 'tts-speed-1'),
    );
    await voice.synthesize(
      { text: 'Slow one', language: 'english', accent: 'american', gender: 'male', speed: 0.5 },
      path.join(dir, 'tts-speed-2'),
    );
    expect(server!.requests.map((r) => r.json().speed)).toEqual([1.1, 0.8]);
  });

  it('places the words inside the speech, not the leading and trailing silence', async () => {
    const cfg = await serve(() => ({ body: paddedWav }));
    const out = await new OpenAIVoice({ ...cfg, apiKey: undefined, ttsModel: 'tts-1', ttsVoice: 'alloy' }).synthesize(
      { text: 'Three little words', language: 'english', accent: 'american', gender: 'male' },
      path.join(dir, 'tts-2'),
    );
    const req = server!.requests[0]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json()).toEqual({ model: 'tts-1', voice: 'alloy', input: 'Three little words', response_format: 'wav' });
    expect(out.durationSec).toBeCloseTo(2.5, 1);
    expect(out.words[0]!.startSec).toBeGreaterThan(0.4);
    expect(out.words[0]!.startSec).toBeLessThan(0.6);
    expect(out.words.at(-1)!.endSec).toBeGreaterThan(1.9);
    expect(out.words.at(-1)!.endSec).toBeLessThan(2.1);
  });

  it('waits for Retry-After on 429 and succeeds on the retry', async () => {
    const cfg = await serve(
      tooManyRequestsOnce(
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        () => ({ body: toneWav }),
      ),
    );
    const out = await new OpenAIVoice(cfg).synthesize(
      { text: 'Hello there', language: 'english', accent: 'american', gender: 'male' },
      path.join(dir, 'tts-429'),
    );
    expect(out.words).toHaveLength(2);
    const [first, second] = server!.requests;
    expect(server!.requests).toHaveLength(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(second!.json()).toEqual(first!.json());
  });

  it('surfaces the provider message of a 400 at once, without retrying and without the key', async () => {
    const cfg = await serve(() => ({
      status: 400,
      json: {
        error: {
          message: `Invalid value for 'voice'. Incorrect API key provided: ${KEY}`,
          type: 'invalid_request_error',
          code: 'invalid_value',
        },
      },
    }));
    const err = await rejectionOf(
      new OpenAIVoice(cfg).synthesize(
        { text: 'Hi', language: 'english', accent: 'american', gender: 'male' },
        path.join(dir, 'tts-400'),
      ),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toContain("Invalid value for 'voice'");
    expect(err.message).toContain('400');
    expect(err.message).not.toContain(KEY);
    expect((err as ProviderError).status).toBe(400);
    expect((err as ProviderError).code).toBe('invalid_value');
    expect(server!.requests).toHaveLength(1);
  });
  it('plugs into renderTalkingVideo as its voice', async () => {
    const cfg = await serve(() => ({ body: paddedWav }));
    const out = await renderTalkingVideo({
      script: 'Three little words',
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription('a young woman', 0) },
      watermark: false,
      workDir: path.join(dir, 'render'),
      voice: new OpenAIVoice(cfg),
    });
    expect(server!.requests.map((r) => r.path)).toEqual(['/v1/audio/speech']);
    expect(out.words.map((w) => w.word)).toEqual(['Three', 'little', 'words']);
    const probe = await ffprobe(out.videoPath);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(Number(probe.format.duration)).toBeGreaterThan(2.4);
  });
});

describe('OpenAI-compatible images', () => {
  it('asks for a portrait and returns it as a 576x1024 PNG', async () => {
    const generated = await sharp({ create: { width: 1024, height: 1792, channels: 3, background: '#7a9cc6' } })
      .png()
      .toBuffer();
    const cfg = await serve(() => ({
      json: { created: 1, data: [{ b64_json: generated.toString('base64'), revised_prompt: 'x' }] },
    }));
    const outPath = path.join(dir, 'character.png');
    const res = await new OpenAIImages(cfg).generate({
      description: 'a woman in her 30s with curly hair',
      seed: 3,
      outPath,
    });
    const req = server!.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/images/generations');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = req.json();
    // gpt-image-1's tallest size and the quality the price list budgets; no response_format (it is refused).
    expect(body).toMatchObject({ model: 'gpt-image-1', size: '1024x1536', quality: 'medium' });
    expect(body.response_format).toBeUndefined();
    expect(body.prompt).toBe(characterPrompt('a woman in her 30s with curly hair', 3));
    expect(res).toEqual({
      imagePath: outPath,
      width: 576,
      height: 1024,
      usage: { provider: 'openai', stage: 'images', model: 'gpt-image-1', images: 1 },
    });
    const meta = await sharp(outPath).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 576, 1024]);
  });

  it("asks a compatible server's own model for base64 at 1024x1792, with no quality", async () => {
    const cfg = await serve(() => ({ json: { data: [{ b64_json: 'AAAA' }] } }));
    await rejectionOf(
      new OpenAIImages({ ...cfg, imageModel: 'flux-dev' }).generate({
        description: 'x',
        outPath: path.join(dir, 'f.png'),
      }),
    );
    const body = server!.requests[0]!.json();
    expect(body).toMatchObject({ model: 'flux-dev', size: '1024x1792', response_format: 'b64_json' });
    expect(body.quality).toBeUndefined();
  });

  it('refuses a named real person before calling the provider', async () => {
    const cfg = await serve(() => ({ status: 500, json: {} }));
    const err = await rejectionOf(
      new OpenAIImages(cfg).generate({ description: 'Taylor Swift in a kitchen', outPath: path.join(dir, 'no.png') }),
    );
    expect(err.name).toBe('ContentRuleError');
    expect(server!.requests).toHaveLength(0);
  });

  it('retries a 500 and then succeeds', async () => {
    const generated = await sharp({ create: { width: 1024, height: 1792, channels: 4, background: '#ffffff' } })
      .png()
      .toBuffer();
    const cfg = await serve((_req, n) =>
      n === 0
        ? { status: 500, json: { error: { message: 'The server had an error', type: 'server_error', code: null } } }
        : { json: { data: [{ b64_json: generated.toString('base64') }] } },
    );
    const outPath = path.join(dir, 'character-500.png');
    await new OpenAIImages(cfg).generate({ description: 'a man', outPath });
    expect(server!.requests).toHaveLength(2);
    expect((await sharp(outPath).metadata()).width).toBe(576);
  });

  it('gives up after 3 attempts of 5xx with the last provider message', async () => {
    const cfg = await serve(() => ({
      status: 503,
      json: { error: { message: 'Engine overloaded', type: 'server_error' } },
    }));
    const err = await rejectionOf(
      new OpenAIImages(cfg).generate({ description: 'a man', outPath: path.join(dir, 'never.png') }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/503.*Engine overloaded.*gave up after 3 attempts/);
    expect(server!.requests).toHaveLength(3);
  });

  it('omits response_format for chatgpt-image-latest too and rejects a reply without an image', async () => {
    const cfg = await serve(() => ({ json: { data: [{ url: 'https://example.invalid/x.png' }] } }));
    const err = await rejectionOf(
      new OpenAIImages({ ...cfg, imageModel: 'chatgpt-image-latest' }).generate({
        description: 'x',
        outPath: path.join(dir, 'no.png'),
      }),
    );
    expect(err.message).toMatch(/no data\[0\]\.b64_json/);
    const body = server!.requests[0]!.json();
    expect(body.response_format).toBeUndefined();
    expect(body.size).toBe('1024x1536');
  });

  it('does not resend a generation after a timeout (it may have been made and billed)', async () => {
    const cfg = await serve(() => ({ delayMs: 400, json: {} }));
    const err = await rejectionOf(
      new OpenAIImages({ ...cfg, timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 10 } }).generate({
        description: 'x',
        outPath: path.join(dir, 'slow.png'),
      }),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/no response within 100 ms/);
    expect(server!.requests).toHaveLength(1);
  });

  it('waits for Retry-After on 429 and sends the same request again', async () => {
    const generated = await sharp({ create: { width: 1024, height: 1792, channels: 3, background: '#aabbcc' } })
      .png()
      .toBuffer();
    const cfg = await serve(
      tooManyRequestsOnce(
        {
          error: { message: 'Rate limit reached for images', type: 'requests', code: 'rate_limit_exceeded' },
        },
        () => ({ json: { data: [{ b64_json: generated.toString('base64') }] } }),
      ),
    );
    const outPath = path.join(dir, 'character-429.png');
    await new OpenAIImages(cfg).generate({ description: 'a man', seed: 2, outPath });
    const [first, second] = server!.requests;
    expect(server!.requests).toHaveLength(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(second!.json()).toEqual(first!.json());
    expect((await sharp(outPath).metadata()).width).toBe(576);
  });
});

describe('OpenAI-compatible vision', () => {
  let productPath: string;
  beforeAll(async () => {
    productPath = path.join(dir, 'product.jpg');
    await writeFile(
      productPath,
      await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#d62d2d' } })
        .jpeg()
        .toBuffer(),
    );
  });

  it('sends the photo as a PNG data URL and reads shape and category from the answer', async () => {
    const cfg = await serve(() => ({
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: '```json\n{"shape": "Bottle", "category": "skincare"}\n```' },
            finish_reason: 'stop',
          },
        ],
      },
    }));
    const res = await new OpenAIVision(cfg).analyse({ imagePath: productPath });
    expect(res).toEqual({ shape: 'bottle', category: 'skincare' });
    const req = server!.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = req.json();
    expect(body.model).toBe('gpt-4o-mini');
    const [text, image] = body.messages[0].content;
    expect(body.messages[0].role).toBe('user');
    expect(text.type).toBe('text');
    expect(text.text).toMatch(/JSON/);
    expect(text.text).toContain('bottle, tube, box, jar, can, pouch, other');
    expect(image.type).toBe('image_url');
    expect(image.image_url.url).toMatch(/^data:image\/png;base64,/);
    const sent = await sharp(Buffer.from(image.image_url.url.split(',')[1], 'base64')).metadata();
    expect([sent.format, sent.width, sent.height]).toEqual(['png', 576, 768]);
  });

  it("maps values outside the engine's lists to 'other'", async () => {
    const cfg = await serve(() => ({
      json: { choices: [{ message: { content: '{"shape":"spaceship","category":"Supplements"}' } }] },
    }));
    expect(await new OpenAIVision(cfg).analyse({ imagePath: productPath })).toEqual({
      shape: 'other',
      category: 'supplement',
    });
  });

  it('parses answers leniently', () => {
    expect(parseProductAnalysis('Sure! {"shape":"jars","category":"Food"} hope that helps')).toEqual({
      shape: 'jar',
      category: 'food',
    });
    expect(parseProductAnalysis('{"shape":"boxes","category":"cosmetic"}')).toEqual({
      shape: 'box',
      category: 'cosmetics',
    });
    expect(parseProductAnalysis('I cannot tell.')).toEqual({ shape: 'other', category: 'other' });
    expect(parseProductAnalysis('{"shape": 3}')).toEqual({ shape: 'other', category: 'other' });
  });
});

describe('word timing estimate', () => {
  it('shares the span by character length with pauses after punctuation', () => {
    const words = estimateWordTimings('Hi, wonderful world.', 1, 3);
    expect(words.map((w) => w.word)).toEqual(['Hi,', 'wonderful', 'world.']);
    expect(words[0]!.startSec).toBe(1);
    expect(words.at(-1)!.endSec).toBeLessThanOrEqual(3);
    expect(words[1]!.startSec).toBeGreaterThan(words[0]!.endSec); // the comma's pause
    expect(words[1]!.endSec - words[1]!.startSec).toBeCloseTo(((words[2]!.endSec - words[2]!.startSec) * 9) / 5, 2);
    expect(estimateWordTimings('   ', 0, 1)).toEqual([]);
  });
});
