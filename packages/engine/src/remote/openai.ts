/**
 * OpenAI-compatible adapters: speech (/audio/speech), images (/images/generations) and vision chat
 * (/chat/completions). They speak the OpenAI wire format, so the same code talks to OpenAI, Ollama, vLLM, LocalAI
 * and other compatible servers by changing OPENAI_BASE_URL.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { ProductCategory, ProductShape } from '../cutout/index.ts';
import { FRAME_HEIGHT, FRAME_WIDTH, LANGUAGE_NAMES, type Gender, type WordTiming } from '../types.ts';
import { produceAtomic, writeFileAtomic } from '../util/files.ts';
import { audioFilterReport, FFMPEG, mediaDurationSec } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import type { VoiceRequest, VoiceResult, VoiceSynthesizer } from '../voice/index.ts';
import { INVENTED_PERSON_FRAMING, assertInventedPerson } from './content-rules.ts';
import { ProviderError, requestWithRetry, type FetchFn, type HttpRequest, type RetryPolicy } from './http.ts';
import {
  assertImageSetting,
  defaultImageQuality,
  defaultImageSize,
  imageQualityProblem,
  imageSizeProblem,
  sendsResponseFormat,
} from './image-models.ts';
import type { ProviderUsage } from './usage.ts';

const PROVIDER = 'OpenAI-compatible';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_TTS_MODEL = 'gpt-4o-mini-tts';
/** Size asked of a model we know nothing about (a compatible server's own); known models: `defaultImageSize`. */
export const DEFAULT_IMAGE_SIZE = '1024x1792';

export interface OpenAIConfig {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when present; local servers usually need none. */
  apiKey?: string;
  ttsModel: string;
  /** Fixed voice; when absent one is picked from the actor's gender. */
  ttsVoice?: string;
  imageModel?: string;
  /** Requested size (OPENAI_IMAGE_SIZE); default per model. The result is always cropped to the 576x1024 frame. */
  imageSize?: string;
  /** low | medium | high | auto for GPT image models (OPENAI_IMAGE_QUALITY); default per model. */
  imageQuality?: string;
  visionModel?: string;
  /** Chat model that writes hook variations (OPENAI_TEXT_MODEL). */
  textModel?: string;
  /** Per-attempt timeout. Defaults: speech 120 s, images 180 s, vision 120 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchFn;
}

export function openAIConfigFromEnv(env: Record<string, string | undefined>): OpenAIConfig {
  const baseUrl = (nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
  assertHttpUrl('OPENAI_BASE_URL', baseUrl);
  const imageModel = nonEmpty(env.OPENAI_IMAGE_MODEL);
  const imageSize = nonEmpty(env.OPENAI_IMAGE_SIZE)?.trim();
  const imageQuality = nonEmpty(env.OPENAI_IMAGE_QUALITY)?.trim();
  if (imageModel && imageSize) assertImageSetting('OPENAI_IMAGE_SIZE', imageSizeProblem(imageModel, imageSize));
  if (imageModel && imageQuality) {
    assertImageSetting('OPENAI_IMAGE_QUALITY', imageQualityProblem(imageModel, imageQuality));
  }
  return {
    baseUrl,
    apiKey: nonEmpty(env.OPENAI_API_KEY),
    ttsModel: nonEmpty(env.OPENAI_TTS_MODEL) ?? DEFAULT_TTS_MODEL,
    ttsVoice: nonEmpty(env.OPENAI_TTS_VOICE),
    imageModel,
    ...(imageSize ? { imageSize } : {}),
    ...(imageQuality ? { imageQuality } : {}),
    visionModel: nonEmpty(env.OPENAI_VISION_MODEL),
    textModel: nonEmpty(env.OPENAI_TEXT_MODEL),
  };
}

/**
 * `idempotent: false` for a call that makes (and bills) something without an idempotency key: it is retried on a
 * 429 or 5xx answer, where the provider says it did not do the work, but not after a timeout or a dropped connection.
 */
function call(
  cfg: OpenAIConfig,
  endpoint: string,
  json: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
  idempotent = true,
) {
  // /audio/speech answers with audio bytes; the others with JSON.
  const headers: Record<string, string> = { accept: endpoint === '/audio/speech' ? '*/*' : 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  const req: HttpRequest = {
    provider: PROVIDER,
    method: 'POST',
    url: `${cfg.baseUrl}${endpoint}`,
    headers,
    json,
    timeoutMs: cfg.timeoutMs ?? timeoutMs,
    signal,
    retry: cfg.retry,
    secrets: [cfg.apiKey],
    fetch: cfg.fetch,
    idempotent,
  };
  return requestWithRetry(req);
}

// ---------------------------------------------------------------------------------------------------------------
// Speech

/** OpenAI's built-in voices, by the actor's gender. */
const VOICE_BY_GENDER: Record<Gender, string> = { female: 'nova', male: 'onyx' };

/** Style instructions (gpt-4o-*-tts models only; tts-1 and most compatible servers have no such field). */
function speechInstructions(req: VoiceRequest): string {
  const accent = req.accent === 'neutral' ? '' : ` with a natural ${req.accent} accent`;
  return `Speak ${LANGUAGE_NAMES[req.language]}${accent}, like a friendly person filming a short, upbeat product video on their phone.`;
}

/**
 * OpenAI-compatible text-to-speech. The API returns audio only, no word timings, so they are estimated: the speech
 * span (the audio minus leading/trailing silence) is shared out over the words in proportion to their character
 * length, with a little extra after punctuation for the pause a speaker makes there. Good enough for
 * word-highlight captions; not phoneme-accurate.
 */
export class OpenAIVoice implements VoiceSynthesizer {
  constructor(readonly config: OpenAIConfig) {}

  async synthesize(req: VoiceRequest, outDir: string, signal?: AbortSignal): Promise<VoiceResult> {
    const text = req.text.trim();
    if (!text) throw new Error('Nothing to say: the script is empty');
    await mkdir(outDir, { recursive: true });
    const cfg = this.config;
    const voice = cfg.ttsVoice ?? VOICE_BY_GENDER[req.gender];
    const body: Record<string, unknown> = { model: cfg.ttsModel, voice, input: text, response_format: 'wav' };
    // OpenAI takes 0.25–4; we offer 0.8–1.2 and leave the field out at normal speed for servers that lack it.
    if (req.speed !== undefined && Math.abs(req.speed - 1) > 0.001) {
      body.speed = Math.min(1.2, Math.max(0.8, req.speed));
    }
    if (/^gpt-4o/i.test(cfg.ttsModel)) body.instructions = speechInstructions(req);
    const res = await call(cfg, '/audio/speech', body, 120_000, signal);
    if (res.body.length < 44) {
      throw new ProviderError(
        `${PROVIDER}: /audio/speech returned ${res.body.length} bytes, not audio`,
        PROVIDER,
        res.status,
      );
    }
    // Some compatible servers ignore response_format and send mp3/ogg; ffmpeg reads the content whatever the name.
    const raw = path.join(outDir, 'voice-raw.audio');
    await writeFileAtomic(raw, res.body);
    const wavPath = path.join(outDir, 'voice.wav');
    await produceAtomic(wavPath, (tmp) =>
      runProcess(
        FFMPEG,
        ['-y', '-v', 'error', '-protocol_whitelist', 'file', '-i', raw, '-ac', '1', '-ar', '48000', tmp],
        {
          timeoutMs: 60_000,
          signal,
        },
      ),
    );
    const durationSec = await mediaDurationSec(wavPath);
    const span = await speechSpan(wavPath, durationSec, signal);
    return {
      wavPath,
      durationSec,
      words: estimateWordTimings(text, span.startSec, span.endSec),
      voice: `openai:${cfg.ttsModel}:${voice}`,
      usage: { provider: 'openai', stage: 'voice', model: cfg.ttsModel, characters: text.length },
    };
  }
}

/**
 * Word timings spread over [startSec, endSec] in proportion to each word's character length (letters and digits;
 * at least 1), plus a pause weight after , ; : (1.5 chars) and . ! ? (3 chars). Words keep their punctuation, like
 * the local voices' tokens. Strictly increasing, never past endSec.
 */
export function estimateWordTimings(text: string, startSec: number, endSec: number): WordTiming[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return [];
  const weights = tokens.map((t, i) => {
    const chars = Math.max(1, t.replace(/[^\p{L}\p{N}]/gu, '').length);
    const last = i === tokens.length - 1;
    const pause = last ? 0 : /[.!?…]["')\]]*$/u.test(t) ? 3 : /[,;:]["')\]]*$/u.test(t) ? 1.5 : 0;
    return { chars, pause };
  });
  const total = weights.reduce((s, w) => s + w.chars + w.pause, 0);
  const span = Math.max(0.05 * tokens.length, endSec - startSec);
  const perUnit = span / total;
  const out: WordTiming[] = [];
  let t = startSec;
  tokens.forEach((word, i) => {
    const w = weights[i]!;
    const s = t;
    const e = s + w.chars * perUnit;
    out.push({ word, startSec: round3(s), endSec: round3(e) });
    t = e + w.pause * perUnit;
  });
  return out;
}

/** Where speech starts and ends: ffmpeg silencedetect trims leading/trailing silence (whole file if none). */
export async function speechSpan(
  wavPath: string,
  durationSec: number,
  signal?: AbortSignal,
): Promise<{ startSec: number; endSec: number }> {
  const stderr = await audioFilterReport(wavPath, 'silencedetect=noise=-45dB:d=0.12', { timeoutMs: 60_000, signal });
  let startSec = 0;
  let endSec = durationSec;
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  // Leading silence: one that starts at ~0.
  if (starts.length > 0 && starts[0]! <= 0.02 && ends.length > 0) startSec = ends[0]!;
  // Trailing silence: the last silence either has no end (older ffmpeg) or ends at the end of the file.
  const lastStart = starts.at(-1);
  if (lastStart !== undefined && lastStart > startSec) {
    const lastEnd = ends.length === starts.length ? ends.at(-1)! : undefined;
    if (lastEnd === undefined || lastEnd >= durationSec - 0.05) endSec = lastStart;
  }
  if (!(endSec - startSec > 0.2)) return { startSec: 0, endSec: durationSec };
  return { startSec: Math.max(0, startSec), endSec: Math.min(durationSec, endSec) };
}

// ---------------------------------------------------------------------------------------------------------------
// Images

export interface ImageGenerationRequest {
  /** Free-text description of the person (from the user). */
  description: string;
  /**
   * Varies the person between calls with the same description ("Generate More"): the same seed gives the same
   * setting, wardrobe and framing details in the prompt, another seed other ones.
   */
  seed?: number | string;
  outPath: string;
  signal?: AbortSignal;
}

export interface ImageGenerationResult {
  /** PNG, FRAME_WIDTH x FRAME_HEIGHT (576x1024). */
  imagePath: string;
  width: number;
  height: number;
  usage?: ProviderUsage;
}

/** Characters from a description. The local stage draws the illustrated rig from `actorFromDescription`. */
export interface ImageGenerator {
  generate(req: ImageGenerationRequest): Promise<ImageGenerationResult>;
}

/** Settings and details a seed picks from, so several actors from one description do not look cloned. */
const UGC_SETTINGS = [
  'in a bright home kitchen',
  'in a cosy living room with plants',
  'in a bathroom with a mirror behind',
  'in a bedroom by a window',
  'in a parked car, seat belt off',
  'on a balcony in daylight',
  'in a home office',
  'in a small cafe',
] as const;
const UGC_DETAILS = [
  'slight smile',
  'mid-sentence expression, relaxed',
  'friendly raised eyebrows',
  'warm genuine smile',
  'casual, just-got-home look',
  'confident, slightly amused look',
] as const;

function seedIndex(seed: number | string | undefined, salt: string, n: number): number {
  const s = `${salt}:${seed ?? 0}`;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0) % n;
}

/**
 * The prompt sent for a character: the user's words inside a fixed framing that asks for a UGC selfie look
 * (phone front camera, natural light, vertical, hands visible) and an invented person. The seed picks a setting
 * and an expression so "Generate More" gives new people.
 */
export function characterPrompt(description: string, seed?: number | string): string {
  const setting = UGC_SETTINGS[seedIndex(seed, 'setting', UGC_SETTINGS.length)];
  const detail = UGC_DETAILS[seedIndex(seed, 'detail', UGC_DETAILS.length)];
  return [
    `Vertical 9:16 smartphone selfie-video frame of a single real-looking person: ${description.trim()}.`,
    `Filmed on a phone front camera at arm's length ${setting}, natural light, authentic UGC creator look, ${detail}.`,
    'Waist-up, facing and looking into the lens, mouth closed, both hands visible with one hand free at chest height',
    'ready to hold a product, realistic skin texture, no beauty filter, no text, no logos, no watermark.',
    INVENTED_PERSON_FRAMING,
  ].join(' ');
}

export class OpenAIImages implements ImageGenerator {
  constructor(readonly config: OpenAIConfig) {}

  async generate(req: ImageGenerationRequest): Promise<ImageGenerationResult> {
    const cfg = this.config;
    if (!cfg.imageModel) throw new Error('OPENAI_IMAGE_MODEL is not set');
    assertInventedPerson(req.description);
    const body: Record<string, unknown> = {
      model: cfg.imageModel,
      prompt: characterPrompt(req.description, req.seed),
      n: 1,
      size: cfg.imageSize ?? defaultImageSize(cfg.imageModel),
    };
    const quality = cfg.imageQuality ?? defaultImageQuality(cfg.imageModel);
    if (quality) body.quality = quality;
    // GPT image models always answer in base64 and refuse the response_format field.
    if (sendsResponseFormat(cfg.imageModel)) body.response_format = 'b64_json';
    // An image is billed once made; without an idempotency key a timed-out request is not sent again.
    const res = await call(cfg, '/images/generations', body, 180_000, req.signal, false);
    const parsed = res.json<{ data?: { b64_json?: string }[] }>();
    const b64 = parsed.data?.[0]?.b64_json;
    if (!b64)
      throw new ProviderError(`${PROVIDER}: /images/generations returned no data[0].b64_json`, PROVIDER, res.status);
    const bytes = Buffer.from(b64, 'base64');
    let png: Buffer;
    try {
      // Cover-crop from the top-centre area (attention strategy keeps the face) into the 9:16 frame.
      png = await sharp(bytes)
        .resize(FRAME_WIDTH, FRAME_HEIGHT, { fit: 'cover', position: sharp.strategy.attention })
        .removeAlpha()
        .png()
        .toBuffer();
    } catch (e) {
      throw new ProviderError(
        `${PROVIDER}: /images/generations returned an unreadable image (${(e as Error).message})`,
        PROVIDER,
        res.status,
      );
    }
    await writeFileAtomic(req.outPath, png);
    return {
      imagePath: req.outPath,
      width: FRAME_WIDTH,
      height: FRAME_HEIGHT,
      usage: { provider: 'openai', stage: 'images', model: cfg.imageModel, images: 1 },
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Vision

/** The engine's ProductShape / ProductCategory values, checked against the types in both directions. */
export const PRODUCT_SHAPES = [
  'bottle',
  'tube',
  'box',
  'jar',
  'can',
  'pouch',
  'other',
] as const satisfies readonly ProductShape[];
export const PRODUCT_CATEGORIES = [
  'skincare',
  'beverage',
  'supplement',
  'cosmetics',
  'food',
  'other',
] as const satisfies readonly ProductCategory[];
type Exhaustive<All, Listed> = [All] extends [Listed] ? true : never;
const shapesComplete: Exhaustive<ProductShape, (typeof PRODUCT_SHAPES)[number]> = true;
const categoriesComplete: Exhaustive<ProductCategory, (typeof PRODUCT_CATEGORIES)[number]> = true;
void shapesComplete;
void categoriesComplete;

export interface ProductAnalysis {
  shape: ProductShape;
  category: ProductCategory;
}

/** Product analysis. Locally, `cutoutProduct` computes it from the mask geometry and colours. */
export interface ProductAnalyzer {
  analyse(req: { imagePath: string; signal?: AbortSignal }): Promise<ProductAnalysis>;
}

export function visionPrompt(): string {
  return [
    'This photo shows one product for sale. Classify it.',
    `"shape" is one of: ${PRODUCT_SHAPES.join(', ')}.`,
    `"category" is one of: ${PRODUCT_CATEGORIES.join(', ')}.`,
    'Answer with JSON only, exactly like {"shape":"bottle","category":"skincare"}.',
  ].join('\n');
}

/** Longest side sent to the model; enough to recognise a product, small enough to keep the request light. */
export const VISION_MAX_SIDE = 768;

export class OpenAIVision implements ProductAnalyzer {
  constructor(readonly config: OpenAIConfig) {}

  async analyse(req: { imagePath: string; signal?: AbortSignal }): Promise<ProductAnalysis> {
    const cfg = this.config;
    if (!cfg.visionModel) throw new Error('OPENAI_VISION_MODEL is not set');
    const png = await sharp(await readFile(req.imagePath))
      .rotate()
      .resize(VISION_MAX_SIDE, VISION_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    const body = {
      // No temperature / max_tokens: reasoning models reject them, and the prompt already asks for a short answer.
      model: cfg.visionModel,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: visionPrompt() },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
          ],
        },
      ],
    };
    const text = await chatCompletion(cfg, body, 120_000, req.signal);
    return parseProductAnalysis(text);
  }
}

/** POST /chat/completions and the first choice's text (string content or the text parts of an array). */
export async function chatCompletion(
  cfg: OpenAIConfig,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  const res = await call(cfg, '/chat/completions', body, timeoutMs, signal);
  const parsed = res.json<{ choices?: { message?: { content?: unknown } }[] }>();
  const content = parsed.choices?.[0]?.message?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((c: { text?: string }) => c?.text ?? '').join('')
        : '';
  if (!text)
    throw new ProviderError(`${PROVIDER}: /chat/completions returned no message content`, PROVIDER, res.status);
  return text;
}

/**
 * Reads {shape, category} out of a model's answer (bare JSON, JSON in a ```json fence, or JSON inside prose) and
 * maps anything outside the engine's lists to 'other'. Plurals and case are forgiven ("Bottles" → bottle).
 */
export function parseProductAnalysis(text: string): ProductAnalysis {
  let obj: Record<string, unknown> = {};
  const m = /\{[\s\S]*\}/.exec(text);
  if (m) {
    try {
      const v: unknown = JSON.parse(m[0]);
      if (v && typeof v === 'object') obj = v as Record<string, unknown>;
    } catch {
      /* not JSON: both fields fall back to 'other' */
    }
  }
  return { shape: pick(obj.shape, PRODUCT_SHAPES), category: pick(obj.category, PRODUCT_CATEGORIES) };
}

function pick<T extends string>(value: unknown, list: readonly T[]): T {
  if (typeof value !== 'string') return 'other' as T;
  const v = value.trim().toLowerCase();
  const candidates = [v, v.replace(/s$/, ''), v.replace(/es$/, ''), `${v}s`];
  for (const c of candidates) if ((list as readonly string[]).includes(c)) return c as T;
  return 'other' as T;
}

// ---------------------------------------------------------------------------------------------------------------

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

export function assertHttpUrl(name: string, value: string): void {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`${name} is not a valid URL: ${value}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL: ${value}`);
}
