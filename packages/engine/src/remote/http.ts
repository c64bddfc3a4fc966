/**
 * One HTTP path for every remote provider: a per-attempt timeout, retries with exponential backoff on 429 (honouring
 * Retry-After) and 5xx, abort from the caller's signal, and errors that carry the provider's own message — never the
 * API key (secrets are redacted from anything that ends up in an error message).
 */
import { abortError } from '../util/process.ts';

export type FetchFn = typeof fetch;

export interface RetryPolicy {
  /** Total attempts including the first one. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each attempt (with ±20% jitter). */
  baseDelayMs: number;
  /** Ceiling for one wait, whether computed or asked for by Retry-After. */
  maxDelayMs: number;
  /**
   * Shortest wait after a 429 that names no delay. Google's Gemini often answers 429 with neither Retry-After nor
   * RetryInfo, and retrying after a second or two only fails again; its adapter waits at least 10 s.
   */
  minRateLimitDelayMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 30_000 };

/**
 * 429 codes that are not rate limits: OpenAI's `insufficient_quota` (the account is out of credit) stays so until
 * someone pays, so retrying it only repeats the refusal.
 */
const NOT_RETRYABLE_429 = new Set(['insufficient_quota']);

export interface HttpRequest {
  /** Provider name for error messages, e.g. "OpenAI-compatible" or "fal". */
  provider: string;
  method?: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (fetch writes the boundary); rebuilt by fetch on every attempt. */
  form?: FormData;
  /** Sent as is (set its content-type in `headers`), e.g. a file PUT to a signed upload URL. */
  body?: Buffer;
  /** Timeout of one attempt (the whole response, body included, must arrive within it). */
  timeoutMs?: number;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  /**
   * False for calls that cost money and have no idempotency key (generation POSTs): a timeout or dropped connection
   * may mean the provider did the work, so it is not retried blindly. 429 and 5xx answers are still retried —
   * the provider said it did not do it. Default true.
   */
  idempotent?: boolean;
  /** Values that must never appear in an error message (API keys). */
  secrets?: (string | undefined)[];
  fetch?: FetchFn;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    /** HTTP status, or null for network errors and timeouts. */
    readonly status: number | null,
    /** Provider's error code/type when it sent one (OpenAI `error.code` / `error.type`). */
    readonly code: string | null = null,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  json<T = unknown>(): T;
}

/**
 * Sends a request, retrying 429 / 5xx / network errors / per-attempt timeouts up to `maxAttempts`. Resolves with the
 * full body of a 2xx response; otherwise rejects with a ProviderError whose message includes the provider's text.
 */
export async function requestWithRetry(req: HttpRequest): Promise<HttpResponse> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...req.retry };
  const doFetch = req.fetch ?? fetch;
  const method =
    req.method ?? (req.json === undefined && req.form === undefined && req.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  let body: string | FormData | Uint8Array | undefined;
  if (req.body !== undefined) {
    body = new Uint8Array(req.body);
  } else if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.json);
  } else if (req.form !== undefined) {
    body = req.form;
  }
  const redact = redactor(req.secrets);
  const where = `${method} ${safeUrl(req.url)}`;

  let lastError: ProviderError | null = null;
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    if (req.signal?.aborted) throw abortError(req.signal);
    const attemptSignal = combine(req.signal, req.timeoutMs);
    let waitMs: number | null = null;
    try {
      const res = await doFetch(req.url, { method, headers, body, signal: attemptSignal });
      const buf = Buffer.from(await res.arrayBuffer());
      if (res.ok) {
        return {
          status: res.status,
          headers: res.headers,
          body: buf,
          json<T>() {
            try {
              return JSON.parse(buf.toString('utf8')) as T;
            } catch {
              throw new ProviderError(
                redact(`${req.provider}: ${where} returned a body that is not JSON: ${snippet(buf.toString('utf8'))}`),
                req.provider,
                res.status,
              );
            }
          },
        };
      }
      const { message, code } = providerMessage(buf);
      const retryable = (res.status === 429 && !NOT_RETRYABLE_429.has(code ?? '')) || res.status >= 500;
      lastError = new ProviderError(
        redact(`${req.provider} error ${res.status} on ${where}: ${message || res.statusText || 'no message'}`),
        req.provider,
        res.status,
        code,
        retryable,
      );
      if (!retryable) throw lastError;
      waitMs = retryAfterMs(res.headers.get('retry-after')) ?? retryInfoMs(buf);
      if (res.status === 429 && waitMs === null && policy.minRateLimitDelayMs) {
        const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
        waitMs = Math.max(policy.minRateLimitDelayMs, backoff);
      }
    } catch (err) {
      if (err instanceof ProviderError) {
        if (!err.retryable) throw err;
        lastError = err;
      } else {
        // The caller's abort wins over everything; our own per-attempt timeout is a retryable failure.
        if (req.signal?.aborted) throw abortError(req.signal);
        const e = err as Error;
        const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const detail = timedOut
          ? `no response within ${req.timeoutMs} ms`
          : `${e.message}${cause?.code ? ` (${cause.code})` : cause?.message ? ` (${cause.message})` : ''}`;
        lastError = new ProviderError(
          redact(`${req.provider}: ${where} failed: ${detail}`),
          req.provider,
          null,
          null,
          req.idempotent !== false,
        );
        if (req.idempotent === false) throw lastError;
      }
    }
    if (attempt < policy.maxAttempts) {
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
      await sleep(Math.min(policy.maxDelayMs, waitMs ?? backoff), req.signal);
    }
  }
  const e = lastError!;
  throw new ProviderError(
    `${e.message} (gave up after ${policy.maxAttempts} attempt${policy.maxAttempts === 1 ? '' : 's'})`,
    e.provider,
    e.status,
    e.code,
    false,
  );
}

/**
 * The human part of an error body: OpenAI `{error:{message,type,code}}`, fal/FastAPI `{detail: string | [{msg}]}`,
 * `{message}` / `{error: "…"}` from other compatible servers, else the start of the raw text.
 */
export function providerMessage(body: Buffer | string): { message: string; code: string | null } {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: snippet(text), code: null };
  }
  if (parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    const err = o.error;
    if (err && typeof err === 'object') {
      const eo = err as Record<string, unknown>;
      // OpenAI: {code: "…", type: "…"}; Google: {code: 429, status: "RESOURCE_EXHAUSTED"}.
      const code =
        typeof eo.code === 'string'
          ? eo.code
          : typeof eo.type === 'string'
            ? eo.type
            : typeof eo.status === 'string'
              ? eo.status
              : null;
      if (typeof eo.message === 'string') return { message: eo.message, code };
    }
    if (typeof err === 'string') return { message: err, code: null };
    if (typeof o.detail === 'string') return { message: o.detail, code: null };
    // ElevenLabs: {detail: {status: "quota_exceeded", message: "…"}}
    if (o.detail && typeof o.detail === 'object' && !Array.isArray(o.detail)) {
      const d = o.detail as Record<string, unknown>;
      const code = typeof d.status === 'string' ? d.status : typeof d.code === 'string' ? d.code : null;
      if (typeof d.message === 'string') return { message: d.message, code };
    }
    if (Array.isArray(o.detail)) {
      const msgs = o.detail.map((d: unknown) => {
        if (d && typeof d === 'object') {
          const r = d as { msg?: unknown; loc?: unknown };
          const loc = Array.isArray(r.loc) ? r.loc.join('.') : '';
          return `${loc ? `${loc}: ` : ''}${typeof r.msg === 'string' ? r.msg : JSON.stringify(d)}`;
        }
        return String(d);
      });
      return { message: msgs.join('; '), code: null };
    }
    if (typeof o.message === 'string') return { message: o.message, code: null };
  }
  return { message: snippet(text), code: null };
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - Date.now());
}

/** Google's RetryInfo in an error body (`error.details[].retryDelay`, e.g. "37s"), in ms; null when absent. */
export function retryInfoMs(body: Buffer | string): number | null {
  try {
    const parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as {
      error?: { details?: Array<{ '@type'?: string; retryDelay?: string }> };
    };
    for (const d of parsed.error?.details ?? []) {
      const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay ?? '');
      if (m) return Math.round(Number(m[1]) * 1000);
    }
  } catch {
    /* not JSON */
  }
  return null;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function combine(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  const timeout = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
  if (signal && timeout) return AbortSignal.any([signal, timeout]);
  return signal ?? timeout;
}

function redactor(secrets: (string | undefined)[] | undefined): (s: string) => string {
  const list = (secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 4);
  return (s) => list.reduce((acc, secret) => acc.split(secret).join('***'), s);
}

/** A URL for messages: no query string (signed URLs carry tokens there) and no credentials. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol === 'data:') return 'data:…';
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}
