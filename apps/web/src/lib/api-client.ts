import { TokenPair } from '@hookreel/contracts';
import { config } from '@/config';
import { isPublicPath, session } from '@/lib/session';

/** An API failure. `detail` is the server's `{detail}` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly body: unknown;

  constructor(status: number, detail: string | undefined, body: unknown) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.body = body;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The server's detail message if there is one, else the given fallback (for 402 and friends). */
export const errorDetail = (e: unknown, fallback: string): string => (isApiError(e) && e.detail ? e.detail : fallback);

type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialisable value, or FormData for multipart. */
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send once more when the network drops the request (only safe for idempotent calls). */
  resendOnNetworkError?: boolean;
}

const REFRESH_PATH = '/auth/refresh';
const LOGOUT_PATH = '/auth/logout';
/** The callback page's code exchange: a 401 there means a dead code, never a session to renew. */
const EXCHANGE_PATH = '/auth/exchange';
const NO_REFRESH_PATHS = [REFRESH_PATH, LOGOUT_PATH, EXCHANGE_PATH];

/**
 * Called when the session cannot be renewed (refresh failed or no refresh token). The default sends the browser
 * to /login unless it is already on a public auth screen; the app replaces it with a router navigation.
 */
export type SessionExpiredHandler = () => void;

/** Indirection over window.location so the redirect can be observed in tests. */
export const browser = {
  pathname: (): string => window.location.pathname,
  assign: (url: string): void => window.location.assign(url),
};

export const defaultSessionExpiredHandler: SessionExpiredHandler = () => {
  if (shouldRedirectToLogin(browser.pathname())) browser.assign('/login');
};

export const shouldRedirectToLogin = (pathname: string) => !isPublicPath(pathname);

let onSessionExpired: SessionExpiredHandler = defaultSessionExpiredHandler;
export function setSessionExpiredHandler(handler: SessionExpiredHandler | null): void {
  onSessionExpired = handler ?? defaultSessionExpiredHandler;
}

function buildUrl(path: string, query?: Query): string {
  const url = `${config.apiBase}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function detailOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (typeof d === 'string') return d;
    if (d !== undefined) return JSON.stringify(d);
  }
  return typeof body === 'string' && body.length > 0 && body.length < 300 ? body : undefined;
}

function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body; // the browser sets the multipart boundary
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(buildUrl(path, opts.query), {
    method: opts.method ?? 'GET',
    headers,
    body,
    credentials: 'include',
    signal: opts.signal,
  });
}

/** The single in-flight refresh; concurrent 401s wait for it. */
let refreshing: Promise<string | null> | null = null;

/** Web Locks name shared by every tab of this origin. */
export const REFRESH_LOCK = 'hookreel-token-refresh';

/**
 * Tabs share one session (localStorage) and a refresh token is good for one use: two tabs refreshing at once
 * would spend it twice, which the server takes for theft and answers by revoking the session in every tab. The
 * Web Locks API (secure contexts: https and localhost) makes tabs refresh one at a time; without it, no worse
 * than before.
 */
async function withRefreshLock(work: () => Promise<string | null>): Promise<string | null> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? await locks.request(REFRESH_LOCK, work) : work();
}

async function doRefresh(): Promise<string | null> {
  const seen = session.getRefreshToken();
  if (!seen) return null;
  return withRefreshLock(async () => {
    // While this tab waited for the lock, another may have renewed the session (or signed out): use its result.
    const refreshToken = session.getRefreshToken();
    if (refreshToken !== seen) return refreshToken ? session.getAccessToken() : null;
    return refreshWith(refreshToken);
  });
}

async function refreshWith(refreshToken: string): Promise<string | null> {
  try {
    const res = await send(REFRESH_PATH, { method: 'POST', body: { refresh_token: refreshToken } }, null);
    if (!res.ok) return null;
    const parsed = TokenPair.safeParse(await parseBody(res));
    if (!parsed.success) return null;
    session.setTokens(parsed.data);
    return parsed.data.access_token;
  } catch {
    return null;
  }
}

/** Refreshes the tokens once for everybody waiting; on failure clears the session and reports it. */
export function refreshSession(): Promise<string | null> {
  if (!refreshing) {
    refreshing = doRefresh()
      .then((token) => {
        if (!token) {
          session.clear();
          onSessionExpired();
        }
        return token;
      })
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

/** How long a dropped credit-spending request waits before its one resend. */
export const NETWORK_RESEND_DELAY_MS = 500;

const isNetworkFailure = (e: unknown) => e instanceof TypeError; // fetch rejects with TypeError; aborts are DOMException

async function sendWithResend(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  try {
    return await send(path, opts, token);
  } catch (e) {
    if (!opts.resendOnNetworkError || !isNetworkFailure(e) || opts.signal?.aborted) throw e;
    await new Promise((resolve) => setTimeout(resolve, NETWORK_RESEND_DELAY_MS));
    return send(path, opts, token);
  }
}

/**
 * A fresh Idempotency-Key for one user action that spends credits. Every resend of that action carries the same
 * key, so the server answers a resend with the first response instead of charging twice. Built from
 * getRandomValues because crypto.randomUUID exists only in secure contexts (not on plain-http hosts).
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Spending calls in flight in this tab, by intent. */
const spendsInFlight = new Map<string, Promise<unknown>>();
/** Where intents' keys live until they succeed; shared by the tabs of this origin. */
export const SPEND_INTENTS_STORAGE = 'hookreel.spend-intents';
/** An intent older than this starts over with a new key (the server keeps keys for a day). */
export const SPEND_INTENT_TTL_MS = 10 * 60_000;

type IntentStore = Record<string, { key: string; at: number }>;

function readIntents(): IntentStore {
  try {
    const raw = localStorage.getItem(SPEND_INTENTS_STORAGE);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as IntentStore) : {};
  } catch {
    return {};
  }
}

function writeIntents(store: IntentStore): void {
  try {
    localStorage.setItem(SPEND_INTENTS_STORAGE, JSON.stringify(store));
  } catch {
    // Storage full or blocked: the in-tab dedupe and resend key still hold.
  }
}

/** The key of this intent: the one already started (here or in another tab), else a new one. */
function intentKeyFor(intent: string): string {
  const store = readIntents();
  const t = Date.now();
  for (const [k, v] of Object.entries(store)) if (t - v.at > SPEND_INTENT_TTL_MS) delete store[k];
  const existing = store[intent];
  if (existing) return existing.key;
  const key = newIdempotencyKey();
  store[intent] = { key, at: t };
  writeIntents(store);
  return key;
}

function endIntent(intent: string): void {
  const store = readIntents();
  delete store[intent];
  writeIntents(store);
}

/** What makes two spending calls the same intent: route, query and inputs (files by name, size and date). */
export function spendIntentOf(path: string, body: unknown, query?: Query): string {
  let inputs: unknown = body;
  if (body instanceof FormData) {
    inputs = [...body.entries()].map(([k, v]) =>
      typeof v === 'string' ? [k, v] : [k, v.name, v.size, v instanceof File ? v.lastModified : 0],
    );
  }
  const text = JSON.stringify([path, query ?? null, inputs ?? null]);
  // FNV-1a: a short, stable storage key for long multipart inputs.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${path}#${h.toString(16)}#${text.length}`;
}

function spendOnce<T>(path: string, body: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>): Promise<T> {
  const intent = spendIntentOf(path, body, opts?.query);
  const running = spendsInFlight.get(intent);
  if (running) return running as Promise<T>;
  const key = opts?.headers?.['Idempotency-Key'] ?? intentKeyFor(intent);
  const call = request<T>(path, {
    ...opts,
    method: 'POST',
    body,
    headers: { ...opts?.headers, 'Idempotency-Key': key },
    resendOnNetworkError: true,
  })
    .then((res) => {
      endIntent(intent);
      return res;
    })
    .finally(() => spendsInFlight.delete(intent));
  spendsInFlight.set(intent, call);
  return call;
}

export async function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const canRefresh = !NO_REFRESH_PATHS.some((p) => path.startsWith(p));
  const usedToken = session.getAccessToken();
  let res = await sendWithResend(path, opts, usedToken);

  if (res.status === 401 && canRefresh) {
    // Another request may already have renewed the token while this one was in flight.
    const current = session.getAccessToken();
    const token = current && current !== usedToken && !refreshing ? current : await refreshSession();
    if (token) res = await sendWithResend(path, opts, token);
  }

  const body = await parseBody(res);
  if (!res.ok) throw new ApiError(res.status, detailOf(body), body);
  return body as T;
}

export const api = {
  get: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  /**
   * A POST that spends credits, once per user intent: the same call with the same inputs shares one request
   * while it is in flight (a double click), and one Idempotency-Key until it succeeds (a retry, a resend, another
   * tab doing the same), so the server charges it once. A success ends the intent: doing it again is new.
   */
  spend: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    spendOnce<T>(path, body, opts),
  put: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'method'>) =>
    request<T>(path, { ...opts, method: 'DELETE' }),
};

/** Test hook: forget any in-flight refresh. */
export function __resetApiClientForTests(): void {
  refreshing = null;
  spendsInFlight.clear();
  if (typeof localStorage !== 'undefined') localStorage.removeItem(SPEND_INTENTS_STORAGE);
  onSessionExpired = defaultSessionExpiredHandler;
}
