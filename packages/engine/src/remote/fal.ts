/**
 * Talking actor through fal.ai's queue API: submit → poll status (with backoff) → fetch result → download the video.
 * https://docs.fal.ai/model-endpoints/queue
 * A still goes to an image+audio→video avatar model (FAL_AVATAR_MODEL, e.g. OmniHuman or Kling AI Avatar); a clip
 * goes to a video lip-sync model (FAL_LIPSYNC_MODEL, e.g. sync-lipsync).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProgressFn } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { ffprobe, mediaDurationSec } from '../util/media.ts';
import { abortError } from '../util/process.ts';
import { ProviderError, requestWithRetry, safeUrl, sleep, type FetchFn, type RetryPolicy } from './http.ts';
import { assertHttpUrl, nonEmpty } from './openai.ts';
import type { ProviderUsage } from './usage.ts';

const PROVIDER = 'fal';
export const DEFAULT_FAL_BASE_URL = 'https://queue.fal.run';
export const DEFAULT_FAL_LIPSYNC_MODEL = 'fal-ai/sync-lipsync';
/** Image + audio → talking video; billed per second of output (docs/providers.md). */
export const DEFAULT_FAL_AVATAR_MODEL = 'fal-ai/bytedance/omnihuman';
/** First wait between status polls, and the longest the backoff grows to (FAL_POLL_INTERVAL_MS, FAL_POLL_MAX_INTERVAL_MS). */
const DEFAULT_POLL_MS = 2_000;
const DEFAULT_MAX_POLL_MS = 15_000;
/**
 * Largest local file sent inline as a data URI (FAL_INLINE_INPUTS, self-hosted queues only; before base64, which
 * adds a third). Uploads to fal's storage have no such limit here.
 */
export const MAX_INLINE_BYTES = 10 * 1024 * 1024;
/** fal's REST host for the storage upload (FAL_STORAGE_URL points the upload at a fake or a proxy). */
export const DEFAULT_FAL_STORAGE_URL = 'https://rest.fal.ai';

/**
 * Longest voice, in seconds, each avatar model takes, from its model page ("audio under 30 s"; OmniHuman 1.5 takes
 * under 60 s at 720p). One second is kept in hand. FAL_AVATAR_MAX_AUDIO_SEC overrides it (and sets one for a model
 * not listed); a model with no known limit has none.
 */
export function defaultAvatarMaxAudioSec(model: string, input?: Record<string, unknown>): number | null {
  if (model === 'fal-ai/bytedance/omnihuman') return 29;
  if (model === 'fal-ai/bytedance/omnihuman/v1.5') return input?.resolution === '720p' ? 59 : 29;
  return null;
}
/** Largest result video accepted. */
export const MAX_RESULT_BYTES = 300 * 1024 * 1024;

export interface LipSyncRequest {
  /** The actor: a still (PNG/JPEG/WebP, sent as image_url) or a clip (MP4/MOV/WebM, sent as video_url). */
  imagePath: string;
  /** The voice track (WAV/MP3/…), sent as audio_url. */
  audioPath: string;
  /** Where the talking video (MP4) is written, atomically. */
  outPath: string;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
}

export interface LipSyncResult {
  videoPath: string;
  /** Provider's id for the job, for support and logs. */
  requestId: string;
  /** Seconds of video the provider made, and which model made them. */
  usage: ProviderUsage;
}

export interface LipSyncProvider {
  lipSync(req: LipSyncRequest): Promise<LipSyncResult>;
  /** Longest voice the still (avatar) model takes, in seconds; null or absent when it has no known limit. */
  readonly maxAudioSec?: number | null;
}

export interface FalConfig {
  key: string;
  baseUrl: string;
  /** Model for a still actor (image_url + audio_url → video). */
  model: string;
  /** Model for a clip actor (video_url + audio_url); defaults to `model`. */
  videoModel?: string;
  /**
   * Extra input fields a model needs beside its media, sent with every submit to `model` / `videoModel`
   * (FAL_AVATAR_INPUT / FAL_LIPSYNC_INPUT), e.g. `{"resolution": "480p"}` for VEED Fabric 1.0, which requires it.
   */
  input?: Record<string, unknown>;
  videoInput?: Record<string, unknown>;
  /** First wait between status polls; it grows ×1.5 per poll up to `maxPollIntervalMs`. */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** Give up (and cancel the request) after this long in total. */
  overallTimeoutMs?: number;
  /** fal storage REST base (FAL_STORAGE_URL); inputs are uploaded there and sent as the URLs it returns. */
  storageUrl?: string;
  /** Send inputs as data URIs instead (FAL_INLINE_INPUTS=1): for a self-hosted queue without fal's storage. */
  inlineInputs?: boolean;
  /** Longest voice the still model takes, in seconds (FAL_AVATAR_MAX_AUDIO_SEC, default per model); null: none. */
  maxAudioSec?: number | null;
  /** Per-request timeout (submit, each poll, result, download). */
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchFn;
}

/**
 * FAL_AVATAR_MODEL (stills) and FAL_LIPSYNC_MODEL (clips). Older setups set only FAL_LIPSYNC_MODEL to an
 * image-to-video model and used it for everything: that still works — with no FAL_AVATAR_MODEL, a set
 * FAL_LIPSYNC_MODEL serves stills too.
 */
export function falConfigFromEnv(env: Record<string, string | undefined>): FalConfig | null {
  const key = nonEmpty(env.FAL_KEY);
  if (!key) return null;
  const baseUrl = (nonEmpty(env.FAL_BASE_URL) ?? DEFAULT_FAL_BASE_URL).replace(/\/+$/, '');
  assertHttpUrl('FAL_BASE_URL', baseUrl);
  const clean = (m: string) => m.replace(/^\/+|\/+$/g, '');
  const avatar = nonEmpty(env.FAL_AVATAR_MODEL);
  const lipsync = nonEmpty(env.FAL_LIPSYNC_MODEL);
  const avatarInput = extraInput('FAL_AVATAR_INPUT', env.FAL_AVATAR_INPUT);
  const lipsyncInput = extraInput('FAL_LIPSYNC_INPUT', env.FAL_LIPSYNC_INPUT);
  // An old lip-sync-only setup serves stills with the lip-sync model: its fields go with it.
  const stillInput = avatarInput ?? (!avatar && lipsync ? lipsyncInput : undefined);
  const pollIntervalMs = millis('FAL_POLL_INTERVAL_MS', env.FAL_POLL_INTERVAL_MS);
  const maxPollIntervalMs = millis('FAL_POLL_MAX_INTERVAL_MS', env.FAL_POLL_MAX_INTERVAL_MS);
  if ((pollIntervalMs ?? DEFAULT_POLL_MS) > (maxPollIntervalMs ?? DEFAULT_MAX_POLL_MS)) {
    throw new Error('FAL_POLL_INTERVAL_MS may not be more than FAL_POLL_MAX_INTERVAL_MS');
  }
  const storageUrl = (nonEmpty(env.FAL_STORAGE_URL) ?? DEFAULT_FAL_STORAGE_URL).replace(/\/+$/, '');
  assertHttpUrl('FAL_STORAGE_URL', storageUrl);
  const model = clean(avatar ?? lipsync ?? DEFAULT_FAL_AVATAR_MODEL);
  const maxText = nonEmpty(env.FAL_AVATAR_MAX_AUDIO_SEC)?.trim();
  if (maxText !== undefined && !(/^\d+(\.\d+)?$/.test(maxText) && Number(maxText) >= 3)) {
    throw new Error('FAL_AVATAR_MAX_AUDIO_SEC must be a number of seconds, at least 3');
  }
  return {
    key,
    baseUrl,
    storageUrl,
    ...(/^(1|true|yes)$/i.test(nonEmpty(env.FAL_INLINE_INPUTS) ?? '') ? { inlineInputs: true } : {}),
    maxAudioSec: maxText !== undefined ? Number(maxText) : defaultAvatarMaxAudioSec(model, stillInput),
    model,
    videoModel: clean(lipsync ?? DEFAULT_FAL_LIPSYNC_MODEL),
    ...(stillInput ? { input: stillInput } : {}),
    ...(lipsyncInput ? { videoInput: lipsyncInput } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    ...(maxPollIntervalMs !== undefined ? { maxPollIntervalMs } : {}),
  };
}

/** A wait in whole milliseconds from the environment; anything else stops the start-up with the reason. */
function millis(name: string, value: string | undefined): number | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) {
    throw new Error(`${name} must be a whole number of milliseconds, at least 1`);
  }
  return Number(text);
}

/** The media fields the adapter fills itself; an extra input may not replace them. */
const MEDIA_FIELDS = ['image_url', 'video_url', 'audio_url'];

/** A JSON object of extra model inputs from the environment; a malformed one stops the start-up with the reason. */
function extraInput(name: string, value: string | undefined): Record<string, unknown> | undefined {
  const text = nonEmpty(value);
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${name} must be a JSON object, e.g. {"resolution":"480p"}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${name} must be a JSON object, e.g. {"resolution":"480p"}`);
  }
  const taken = MEDIA_FIELDS.filter((f) => f in parsed);
  if (taken.length > 0) throw new Error(`${name} may not set ${taken.join(', ')}: the adapter sends the media`);
  return parsed as Record<string, unknown>;
}

/**
 * Status and result live under the app id (owner/app) without a model's subpath:
 * "fal-ai/bytedance/omnihuman" submits there but polls under "fal-ai/bytedance".
 */
export function falAppId(model: string): string {
  return model.split('/').slice(0, 2).join('/');
}

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
};

/** A local file as a data URI, refused above MAX_INLINE_BYTES with a message that says what to do. */
export async function fileAsDataUri(filePath: string, maxBytes = MAX_INLINE_BYTES): Promise<string> {
  const mime = MIME[path.extname(filePath).toLowerCase()];
  if (!mime) throw new Error(`Cannot send ${path.basename(filePath)} to the lip-sync provider: unsupported file type`);
  const { size } = await stat(filePath);
  if (size > maxBytes) {
    throw new Error(
      `${path.basename(filePath)} is ${formatSize(size)}; files sent inline to the lip-sync provider are limited to ${formatSize(maxBytes)}`,
    );
  }
  return `data:${mime};base64,${(await readFile(filePath)).toString('base64')}`;
}

interface SubmitResponse {
  request_id?: string;
  status_url?: string;
  response_url?: string;
  cancel_url?: string;
}
interface StatusResponse {
  status?: string;
  queue_position?: number;
  error?: unknown;
}
interface ResultResponse {
  video?: { url?: string; content_type?: string };
  /** Some avatar models report the seconds they made. */
  duration?: number;
}

export class FalLipSync implements LipSyncProvider {
  constructor(readonly config: FalConfig) {}

  get maxAudioSec(): number | null {
    return this.config.maxAudioSec ?? null;
  }

  /**
   * A local file into fal's storage, as fal's own client does: `POST {storage}/storage/upload/initiate` (with the
   * key) answers `{upload_url, file_url}`; the bytes go by `PUT upload_url` (a signed URL: no key); the model gets
   * `file_url`. Uploads are free and idempotent, so they are retried like any read.
   */
  async upload(filePath: string, signal?: AbortSignal): Promise<string> {
    const cfg = this.config;
    const contentType = MIME[path.extname(filePath).toLowerCase()];
    if (!contentType) {
      throw new Error(`Cannot send ${path.basename(filePath)} to the lip-sync provider: unsupported file type`);
    }
    const storage = cfg.storageUrl ?? DEFAULT_FAL_STORAGE_URL;
    const common = { provider: PROVIDER, timeoutMs: cfg.requestTimeoutMs ?? 120_000, signal, retry: cfg.retry };
    const initiated = (
      await requestWithRetry({
        ...common,
        method: 'POST',
        url: `${storage}/storage/upload/initiate?storage_type=fal-cdn-v3`,
        json: { content_type: contentType, file_name: path.basename(filePath) },
        headers: { authorization: `Key ${cfg.key}` },
        secrets: [cfg.key],
        fetch: cfg.fetch,
      })
    ).json<{ upload_url?: string; file_url?: string }>();
    if (!initiated.upload_url || !initiated.file_url) {
      throw new ProviderError(`${PROVIDER}: storage upload answered without upload_url/file_url`, PROVIDER, null);
    }
    assertHttpUrl('upload_url', initiated.upload_url);
    assertHttpUrl('file_url', initiated.file_url);
    await requestWithRetry({
      ...common,
      method: 'PUT',
      url: initiated.upload_url,
      body: await readFile(filePath),
      headers: { 'content-type': contentType },
      secrets: [cfg.key],
      fetch: cfg.fetch,
    });
    return initiated.file_url;
  }

  async lipSync(req: LipSyncRequest): Promise<LipSyncResult> {
    const cfg = this.config;
    const report = (f: number, m: string) => req.onProgress?.(Math.max(0, Math.min(1, f)), m);
    let pollMs = cfg.pollIntervalMs ?? DEFAULT_POLL_MS;
    const maxPollMs = cfg.maxPollIntervalMs ?? DEFAULT_MAX_POLL_MS;
    const deadline = Date.now() + (cfg.overallTimeoutMs ?? 20 * 60_000);
    const origin = new URL(cfg.baseUrl).origin;
    // The key goes only to the queue's own origin, never to the CDN that serves the result.
    const http = (url: string, json?: unknown, method?: 'GET' | 'POST' | 'PUT') =>
      requestWithRetry({
        provider: PROVIDER,
        method,
        url,
        json,
        headers: sameOrigin(url, origin) ? { authorization: `Key ${cfg.key}` } : {},
        timeoutMs: cfg.requestTimeoutMs ?? 120_000,
        signal: req.signal,
        retry: cfg.retry,
        secrets: [cfg.key],
        fetch: cfg.fetch,
      });

    report(0.02, 'Uploading to the lip-sync provider');
    const isVideo = /\.(mp4|mov|webm)$/i.test(req.imagePath);
    const model = isVideo ? (cfg.videoModel ?? cfg.model) : cfg.model;
    if (!isVideo && cfg.maxAudioSec != null) {
      // Checked before anything is sent: the model would refuse it after the upload and the queue wait.
      const seconds = await mediaDurationSec(req.audioPath);
      if (seconds > cfg.maxAudioSec) {
        throw new ProviderError(
          `${PROVIDER}: the voice is ${seconds.toFixed(1)} s; ${model} takes at most ${cfg.maxAudioSec} s of audio`,
          PROVIDER,
          null,
          'audio_too_long',
        );
      }
    }
    const send = (file: string) => (cfg.inlineInputs ? fileAsDataUri(file) : this.upload(file, req.signal));
    const input: Record<string, unknown> = {
      ...(isVideo ? (cfg.videoInput ?? (cfg.videoModel ? undefined : cfg.input)) : cfg.input),
      [isVideo ? 'video_url' : 'image_url']: await send(req.imagePath),
      audio_url: await send(req.audioPath),
    };
    // Submitting twice would run (and bill) the model twice: a timeout here is not retried blindly.
    const submitted = (
      await requestWithRetry({
        provider: PROVIDER,
        method: 'POST',
        url: `${cfg.baseUrl}/${model}`,
        json: input,
        headers: { authorization: `Key ${cfg.key}` },
        timeoutMs: cfg.requestTimeoutMs ?? 120_000,
        signal: req.signal,
        retry: cfg.retry,
        idempotent: false,
        secrets: [cfg.key],
        fetch: cfg.fetch,
      })
    ).json<SubmitResponse>();
    const requestId = submitted.request_id;
    if (!requestId) throw new ProviderError(`${PROVIDER}: submit returned no request_id`, PROVIDER, null);
    const appBase = `${cfg.baseUrl}/${falAppId(model)}/requests/${encodeURIComponent(requestId)}`;
    const statusUrl = submitted.status_url ?? `${appBase}/status`;
    const responseUrl = submitted.response_url ?? appBase;
    const cancelUrl = submitted.cancel_url ?? `${appBase}/cancel`;

    const cancel = () => {
      // Best effort, without the aborted signal, so the provider stops billing for a job nobody wants.
      void requestWithRetry({
        provider: PROVIDER,
        method: 'PUT',
        url: cancelUrl,
        headers: sameOrigin(cancelUrl, origin) ? { authorization: `Key ${cfg.key}` } : {},
        timeoutMs: 10_000,
        retry: { maxAttempts: 1 },
        secrets: [cfg.key],
        fetch: cfg.fetch,
      }).catch(() => undefined);
    };

    try {
      let polls = 0;
      for (;;) {
        const st = (await http(statusUrl)).json<StatusResponse>();
        if (st.status === 'COMPLETED') {
          if (st.error) throw new ProviderError(`${PROVIDER}: lip-sync failed: ${describe(st.error)}`, PROVIDER, null);
          break;
        }
        if (st.status === 'IN_QUEUE') {
          report(
            0.05,
            st.queue_position != null
              ? `Waiting in the lip-sync queue (position ${st.queue_position})`
              : 'Waiting in the lip-sync queue',
          );
        } else if (st.status === 'IN_PROGRESS') {
          polls++;
          // No real progress from the provider: creep towards 0.9 so the bar moves without lying about the end.
          report(0.1 + 0.8 * (1 - 1 / (1 + polls / 10)), 'Lip-syncing the actor');
        } else if (st.status === 'FAILED' || st.status === 'CANCELED' || st.status === 'CANCELLED') {
          throw new ProviderError(
            `${PROVIDER}: request ${requestId} ${st.status.toLowerCase()}${st.error ? `: ${describe(st.error)}` : ''}`,
            PROVIDER,
            null,
            st.status,
          );
        } else {
          throw new ProviderError(
            `${PROVIDER}: unexpected status ${JSON.stringify(st.status)} for request ${requestId}`,
            PROVIDER,
            null,
          );
        }
        if (Date.now() + pollMs > deadline) {
          throw new ProviderError(`${PROVIDER}: lip-sync request ${requestId} did not finish in time`, PROVIDER, null);
        }
        await sleep(pollMs, req.signal);
        // Back off: avatar models take minutes, and every poll is a request against our rate limit.
        pollMs = Math.min(maxPollMs, Math.round(pollMs * 1.5));
      }
    } catch (e) {
      if (req.signal?.aborted || (e instanceof ProviderError && /did not finish in time/.test(e.message))) cancel();
      throw e;
    }

    report(0.92, 'Fetching the lip-synced video');
    const result = (await http(responseUrl)).json<ResultResponse>();
    const videoUrl = result.video?.url;
    if (!videoUrl)
      throw new ProviderError(`${PROVIDER}: result for request ${requestId} has no video.url`, PROVIDER, null);
    assertHttpUrl('video.url', videoUrl);
    const video = await requestWithRetry({
      provider: PROVIDER,
      url: videoUrl,
      headers: { accept: '*/*', ...(sameOrigin(videoUrl, origin) ? { authorization: `Key ${cfg.key}` } : {}) },
      timeoutMs: cfg.requestTimeoutMs ?? 300_000,
      signal: req.signal,
      retry: cfg.retry,
      secrets: [cfg.key],
      fetch: cfg.fetch,
    });
    if (video.body.length > MAX_RESULT_BYTES)
      throw new ProviderError(`${PROVIDER}: result video is too large`, PROVIDER, video.status);
    if (req.signal?.aborted) throw abortError(req.signal);
    // Checked before it is moved into place, so a bad download never replaces a good file.
    let seconds = typeof result.duration === 'number' && result.duration > 0 ? result.duration : 0;
    await produceAtomic(req.outPath, async (tmp) => {
      await writeFile(tmp, video.body);
      const probe = await ffprobe(tmp).catch(() => null);
      if (!probe?.streams.some((s) => s.codec_type === 'video')) {
        throw new ProviderError(`${PROVIDER}: ${safeUrl(videoUrl)} is not a playable video`, PROVIDER, video.status);
      }
      if (!seconds) seconds = Number(probe.format?.duration ?? 0) || 0;
    });
    report(1, 'Lip-sync done');
    return {
      videoPath: req.outPath,
      requestId,
      usage: {
        provider: 'fal',
        stage: isVideo ? 'lipsync' : 'avatar',
        model,
        seconds: Math.round(seconds * 100) / 100,
        requestId,
      },
    };
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

function describe(err: unknown): string {
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err).slice(0, 300);
  } catch {
    return String(err);
  }
}
