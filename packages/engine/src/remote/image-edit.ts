/**
 * Product in hand, photoreal: an image-edit model gets the actor picture and the cut-out product and returns the
 * actor holding it. Two providers speak this stage:
 * - OpenAI-compatible `POST /images/edits` (multipart; `gpt-image-1` takes several `image[]` and an optional mask),
 *   https://platform.openai.com/docs/api-reference/images/createEdit
 * - Google Gemini image models through REST `models/{model}:generateContent` with inline image parts,
 *   https://ai.google.dev/gemini-api/docs/image-generation
 * The placement the user drew becomes plain-language instructions (and, for OpenAI, a mask that frees the hand
 * area). The local composite stays the preview and the fallback.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Placement } from '../composite/index.ts';
import { FRAME_HEIGHT, FRAME_WIDTH } from '../types.ts';
import { writeFileAtomic } from '../util/files.ts';
import { ProviderError, requestWithRetry, type FetchFn, type RetryPolicy } from './http.ts';
import { assertHttpUrl, nonEmpty } from './openai.ts';
import {
  assertImageSetting,
  defaultImageQuality,
  defaultInputFidelity,
  imageModelFamily,
  imageQualityProblem,
  inputFidelityProblem,
  sendsResponseFormat,
} from './image-models.ts';
import type { ProviderUsage } from './usage.ts';

/** Portrait size asked of the edit: a size every GPT image model accepts; cropped to the 9:16 frame after. */
const EDIT_SIZE = '1024x1536';

/**
 * OPENAI_EDIT_MODEL and its settings from the environment, checked against what the model accepts. DALL·E models
 * take one square image, so they cannot put a product in a person's hand: they are refused here.
 */
export function openAIEditSettingsFromEnv(
  env: Record<string, string | undefined>,
): { model: string; quality?: string; inputFidelity?: string } | null {
  const model = nonEmpty(env.OPENAI_EDIT_MODEL)?.trim();
  if (!model) return null;
  if (imageModelFamily(model).startsWith('dall-e')) {
    throw new Error(`OPENAI_EDIT_MODEL: ${model} edits one square image and cannot add the product; use gpt-image-1`);
  }
  const quality = nonEmpty(env.OPENAI_EDIT_QUALITY)?.trim();
  const inputFidelity = nonEmpty(env.OPENAI_EDIT_INPUT_FIDELITY)?.trim();
  if (quality) assertImageSetting('OPENAI_EDIT_QUALITY', imageQualityProblem(model, quality));
  if (inputFidelity) assertImageSetting('OPENAI_EDIT_INPUT_FIDELITY', inputFidelityProblem(model, inputFidelity));
  return { model, ...(quality ? { quality } : {}), ...(inputFidelity ? { inputFidelity } : {}) };
}

export interface PlacementEditRequest {
  /** The actor picture (any size; treated as the 576x1024 frame the placement is expressed in). */
  actorPath: string;
  /** The product cut-out (RGBA PNG). */
  productPath: string;
  placement: Placement;
  /** Written atomically: PNG, 576x1024. */
  outPath: string;
  signal?: AbortSignal;
}

export interface PlacementEditResult {
  imagePath: string;
  usage: ProviderUsage;
}

/** A picture changed by words inside an area (the rest kept): a real mouth shape on an actor's photo. */
export interface RegionEditRequest {
  /** The picture (PNG), sent at its own aspect. */
  imagePath: string;
  prompt: string;
  /** The same size as the picture: transparent where the model may repaint (OpenAI's mask; Gemini gets words only). */
  mask: Buffer;
  /** Written atomically: PNG at the picture's own size. */
  outPath: string;
  signal?: AbortSignal;
}

/** The actor holding the product, made by a provider. Locally, `compositeProduct` pastes the cut-out instead. */
export interface ProductPlacer {
  /** "openai" or "gemini", for logs. */
  readonly provider: string;
  placeProduct(req: PlacementEditRequest): Promise<PlacementEditResult>;
  /** The same image-edit model asked to change one area of a picture (decision 216). */
  editRegion(req: RegionEditRequest): Promise<PlacementEditResult>;
}

/** Any image bytes → a PNG of exactly `width` x `height` (the picture the edit was asked of). */
async function toSize(bytes: Buffer, width: number, height: number, provider: string, status: number, outPath: string) {
  let png: Buffer;
  try {
    png = await sharp(bytes).resize(width, height, { fit: 'fill' }).removeAlpha().png().toBuffer();
  } catch (e) {
    throw new ProviderError(`${provider}: returned an unreadable image (${(e as Error).message})`, provider, status);
  }
  await writeFileAtomic(outPath, png);
}

/** The product's box in the frame: centre, size (after scale), rotation. */
export async function productBox(productPath: string, p: Placement) {
  const meta = await sharp(productPath).metadata();
  const width = Math.max(1, (meta.width ?? 1) * p.scale);
  const height = Math.max(1, (meta.height ?? 1) * p.scale);
  return { cx: p.position_x, cy: p.position_y, width, height, rotation: p.rotation };
}

/**
 * The placement in words. Positions are described as the viewer sees the picture; the model is asked to keep the
 * person, the product's look and the background, and to invent nobody.
 */
export function placementPrompt(box: { cx: number; cy: number; width: number; height: number; rotation: number }) {
  const horizontal = box.cx < FRAME_WIDTH * 0.4 ? 'left' : box.cx > FRAME_WIDTH * 0.6 ? 'right' : 'centre';
  const vertical =
    box.cy < FRAME_HEIGHT * 0.4
      ? 'at face height'
      : box.cy < FRAME_HEIGHT * 0.65
        ? 'at chest height'
        : 'at waist height';
  const heightPct = Math.round((Math.min(box.height, FRAME_HEIGHT) / FRAME_HEIGHT) * 100);
  const xPct = Math.round((box.cx / FRAME_WIDTH) * 100);
  const yPct = Math.round((box.cy / FRAME_HEIGHT) * 100);
  const tilt = Math.round(((box.rotation % 360) + 360) % 360);
  const tiltText =
    tilt === 0
      ? 'upright'
      : `tilted about ${tilt <= 180 ? tilt : 360 - tilt} degrees ${tilt <= 180 ? 'clockwise' : 'anticlockwise'}`;
  return [
    'Edit the first image (a vertical smartphone photo of a person). The second image is a product on a transparent background.',
    `Make the person hold this exact product in one hand, ${vertical}, on the ${horizontal} of the picture as the viewer sees it`,
    `(product centre about ${xPct}% from the left and ${yPct}% from the top; the product about ${heightPct}% of the picture height, ${tiltText}),`,
    'label facing the camera, fingers naturally wrapped around it, hand and product lit like the rest of the scene.',
    "Keep the product's shape, colours, label text and logo exactly as in the second image; do not add or change any text.",
    'Keep the same person: face, hair, skin, clothes, pose and expression unchanged; keep the background and framing.',
    'Photorealistic, authentic UGC phone-camera look, natural light, vertical 9:16.',
    'Do not make the person resemble any real, named or famous individual.',
  ].join(' ');
}

/**
 * A mask for `/images/edits`: the size of the actor image sent, opaque everywhere except around the product box
 * (enlarged to free the hand and forearm), where it is transparent — the only area the model should repaint.
 */
export async function placementMask(box: { cx: number; cy: number; width: number; height: number }): Promise<Buffer> {
  const w = Math.min(FRAME_WIDTH, Math.round(Math.max(box.width, box.height) * 1.6 + 80));
  const h = Math.min(FRAME_HEIGHT, Math.round(Math.max(box.width, box.height) * 1.6 + 140));
  const left = Math.max(0, Math.min(FRAME_WIDTH - w, Math.round(box.cx - w / 2)));
  const top = Math.max(0, Math.min(FRAME_HEIGHT - h, Math.round(box.cy - h / 2)));
  // dest-out removes the destination where the source is opaque: an opaque block punches the hole.
  const hole = await sharp({ create: { width: w, height: h, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } })
    .png()
    .toBuffer();
  return sharp({
    create: { width: FRAME_WIDTH, height: FRAME_HEIGHT, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } },
  })
    .composite([{ input: hole, left, top, blend: 'dest-out' }])
    .png()
    .toBuffer();
}

/** The actor as a 576x1024 PNG (the frame the mask and the placement use). */
async function actorFrame(actorPath: string): Promise<Buffer> {
  return sharp(actorPath)
    .resize(FRAME_WIDTH, FRAME_HEIGHT, { fit: 'cover', position: 'attention' })
    .removeAlpha()
    .png()
    .toBuffer();
}

/** The cut-out trimmed to its pixels and kept small (≤ 1024 px): enough detail for the label, a light request. */
async function productPng(productPath: string): Promise<Buffer> {
  return sharp(await readFile(productPath))
    .ensureAlpha()
    .trim({ threshold: 1 })
    .resize(1024, 1024, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer()
    .catch(() =>
      // trim fails on a fully opaque or fully empty image: send it untrimmed.
      sharp(productPath).resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).png().toBuffer(),
    );
}

/** Any image bytes → the 576x1024 PNG frame, or a ProviderError saying the answer was not an image. */
async function toFrame(bytes: Buffer, provider: string, status: number, outPath: string): Promise<void> {
  let png: Buffer;
  try {
    png = await sharp(bytes)
      .resize(FRAME_WIDTH, FRAME_HEIGHT, { fit: 'cover', position: sharp.strategy.attention })
      .removeAlpha()
      .png()
      .toBuffer();
  } catch (e) {
    throw new ProviderError(`${provider}: returned an unreadable image (${(e as Error).message})`, provider, status);
  }
  await writeFileAtomic(outPath, png);
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAI-compatible /images/edits

export interface OpenAIEditConfig {
  baseUrl: string;
  apiKey?: string;
  /** e.g. gpt-image-1 (OPENAI_EDIT_MODEL). */
  model: string;
  /** gpt-image-1 sizes: 1024x1024, 1024x1536 (portrait), 1536x1024, auto. */
  size?: string;
  /** low | medium | high | auto (OPENAI_EDIT_QUALITY); price depends on it. Default per model (medium for GPT image). */
  quality?: string;
  /** low | high (OPENAI_EDIT_INPUT_FIDELITY); default high where the model takes it (gpt-image-1, -1.5). */
  inputFidelity?: string;
  /** Send the hand-area mask (default true). */
  mask?: boolean;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchFn;
}

export class OpenAIImageEdit implements ProductPlacer {
  readonly provider = 'openai';
  constructor(readonly config: OpenAIEditConfig) {}

  async placeProduct(req: PlacementEditRequest): Promise<PlacementEditResult> {
    const cfg = this.config;
    const box = await productBox(req.productPath, req.placement);
    const form = new FormData();
    form.append('model', cfg.model);
    form.append('prompt', placementPrompt(box));
    form.append(
      'image[]',
      new Blob([new Uint8Array(await actorFrame(req.actorPath))], { type: 'image/png' }),
      'actor.png',
    );
    form.append(
      'image[]',
      new Blob([new Uint8Array(await productPng(req.productPath))], { type: 'image/png' }),
      'product.png',
    );
    if (cfg.mask !== false) {
      form.append('mask', new Blob([new Uint8Array(await placementMask(box))], { type: 'image/png' }), 'mask.png');
    }
    const { bytes, status } = await this.sendEdit(form, req.signal);
    await toFrame(bytes, 'OpenAI-compatible /images/edits', status, req.outPath);
    return {
      imagePath: req.outPath,
      usage: { provider: 'openai', stage: 'placement', model: cfg.model, images: 1 },
    };
  }

  /** POST /images/edits with the form's pictures and prompt, the options every edit sends added: the image. */
  private async sendEdit(form: FormData, signal: AbortSignal | undefined): Promise<{ bytes: Buffer; status: number }> {
    const cfg = this.config;
    form.append('n', '1');
    form.append('size', cfg.size ?? EDIT_SIZE);
    const quality = cfg.quality ?? defaultImageQuality(cfg.model);
    if (quality) form.append('quality', quality);
    // Keeps the face and the product's label closer to the inputs (gpt-image-1 and -1.5 only).
    const fidelity = cfg.inputFidelity ?? defaultInputFidelity(cfg.model);
    if (fidelity) form.append('input_fidelity', fidelity);
    // Compatible servers answer with a URL unless asked; GPT image models always send base64 and refuse the field.
    if (sendsResponseFormat(cfg.model)) form.append('response_format', 'b64_json');
    const headers: Record<string, string> = {};
    if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
    const res = await requestWithRetry({
      provider: 'OpenAI-compatible',
      method: 'POST',
      url: `${cfg.baseUrl}/images/edits`,
      headers,
      form,
      timeoutMs: cfg.timeoutMs ?? 180_000,
      signal,
      retry: cfg.retry,
      idempotent: false,
      secrets: [cfg.apiKey],
      fetch: cfg.fetch,
    });
    const b64 = res.json<{ data?: { b64_json?: string }[] }>().data?.[0]?.b64_json;
    if (!b64) {
      throw new ProviderError(
        'OpenAI-compatible: /images/edits returned no data[0].b64_json',
        'OpenAI-compatible',
        res.status,
      );
    }
    return { bytes: Buffer.from(b64, 'base64'), status: res.status };
  }

  async editRegion(req: RegionEditRequest): Promise<PlacementEditResult> {
    const cfg = this.config;
    const meta = await sharp(req.imagePath).metadata();
    const form = new FormData();
    form.append('model', cfg.model);
    form.append('prompt', req.prompt);
    const picture = await sharp(req.imagePath).removeAlpha().png().toBuffer();
    form.append('image[]', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'photo.png');
    form.append('mask', new Blob([new Uint8Array(req.mask)], { type: 'image/png' }), 'mask.png');
    const { bytes, status } = await this.sendEdit(form, req.signal);
    const [w, h] = [meta.width ?? FRAME_WIDTH, meta.height ?? FRAME_HEIGHT];
    await toSize(bytes, w, h, 'OpenAI-compatible /images/edits', status, req.outPath);
    return { imagePath: req.outPath, usage: { provider: 'openai', stage: 'placement', model: cfg.model, images: 1 } };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Google Gemini generateContent

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';
export const DEFAULT_GEMINI_IMAGE_MODEL = 'gemini-2.5-flash-image';
/** After a 429: RetryInfo's delay when sent, else at least 10 s, never more than a minute. */
export const GEMINI_RETRY = { minRateLimitDelayMs: 10_000, maxDelayMs: 60_000 };

export interface GeminiConfig {
  apiKey: string;
  baseUrl: string;
  model: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchFn;
}

export function geminiConfigFromEnv(env: Record<string, string | undefined>): GeminiConfig | null {
  const apiKey = nonEmpty(env.GEMINI_API_KEY);
  if (!apiKey) return null;
  const baseUrl = (nonEmpty(env.GEMINI_BASE_URL) ?? DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, '');
  assertHttpUrl('GEMINI_BASE_URL', baseUrl);
  return { apiKey, baseUrl, model: nonEmpty(env.GEMINI_IMAGE_MODEL) ?? DEFAULT_GEMINI_IMAGE_MODEL };
}

interface GeminiPart {
  text?: string;
  inlineData?: { mimeType?: string; data?: string };
  inline_data?: { mime_type?: string; data?: string };
}
interface GeminiResponse {
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
  responseId?: string;
}

export class GeminiImageEdit implements ProductPlacer {
  readonly provider = 'gemini';
  constructor(readonly config: GeminiConfig) {}

  async placeProduct(req: PlacementEditRequest): Promise<PlacementEditResult> {
    const cfg = this.config;
    const box = await productBox(req.productPath, req.placement);
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: placementPrompt(box) },
            { inline_data: { mime_type: 'image/png', data: (await actorFrame(req.actorPath)).toString('base64') } },
            { inline_data: { mime_type: 'image/png', data: (await productPng(req.productPath)).toString('base64') } },
          ],
        },
      ],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '9:16' } },
    };
    const { bytes, status, responseId } = await this.generate(body, req.signal);
    await toFrame(bytes, `Gemini ${cfg.model}`, status, req.outPath);
    return {
      imagePath: req.outPath,
      usage: { provider: 'gemini', stage: 'placement', model: cfg.model, images: 1, requestId: responseId },
    };
  }

  /** POST generateContent with `body`: the answer's image, or a ProviderError saying why there is none. */
  private async generate(
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ bytes: Buffer; status: number; responseId: string | undefined }> {
    const cfg = this.config;
    const res = await requestWithRetry({
      provider: 'Gemini',
      method: 'POST',
      url: `${cfg.baseUrl}/models/${encodeURIComponent(cfg.model)}:generateContent`,
      headers: { 'x-goog-api-key': cfg.apiKey },
      json: body,
      timeoutMs: cfg.timeoutMs ?? 180_000,
      signal,
      // Gemini's 429s rarely say how long to wait; a second or two is too soon (docs/providers.md).
      retry: { ...GEMINI_RETRY, ...cfg.retry },
      idempotent: false,
      secrets: [cfg.apiKey],
      fetch: cfg.fetch,
    });
    const parsed = res.json<GeminiResponse>();
    const candidate = parsed.candidates?.[0];
    const image = candidate?.content?.parts?.find((p) => p.inlineData?.data || p.inline_data?.data);
    const data = image?.inlineData?.data ?? image?.inline_data?.data;
    if (!data) {
      // A refusal comes back as 200 with no image: say why, in the provider's words.
      const why = parsed.promptFeedback?.blockReason
        ? `the prompt was blocked (${parsed.promptFeedback.blockReason})`
        : candidate?.finishReason && candidate.finishReason !== 'STOP'
          ? `no image (${candidate.finishReason})`
          : 'no image in the answer';
      throw new ProviderError(`Gemini: ${cfg.model} returned ${why}`, 'Gemini', res.status, 'no_image');
    }
    return { bytes: Buffer.from(data, 'base64'), status: res.status, responseId: parsed.responseId };
  }

  async editRegion(req: RegionEditRequest): Promise<PlacementEditResult> {
    const cfg = this.config;
    const meta = await sharp(req.imagePath).metadata();
    const picture = await sharp(req.imagePath).removeAlpha().png().toBuffer();
    const body = {
      contents: [
        {
          role: 'user',
          parts: [{ text: req.prompt }, { inline_data: { mime_type: 'image/png', data: picture.toString('base64') } }],
        },
      ],
      generationConfig: { responseModalities: ['IMAGE'] },
    };
    const { bytes, status, responseId } = await this.generate(body, req.signal);
    const [w, h] = [meta.width ?? FRAME_WIDTH, meta.height ?? FRAME_HEIGHT];
    await toSize(bytes, w, h, `Gemini ${cfg.model}`, status, req.outPath);
    return {
      imagePath: req.outPath,
      usage: { provider: 'gemini', stage: 'placement', model: cfg.model, images: 1, requestId: responseId },
    };
  }
}
