import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress } from './ip-ranges.ts';

/**
 * The one way the server fetches a URL that a user gave it (a product image, a webhook endpoint). It guards
 * against server-side request forgery: only http and https; the host is resolved once, every address it
 * resolves to must be public (see ip-ranges.ts), and the connection is made to the address that was checked, so
 * a DNS answer that changes between the check and the connect (DNS rebinding) cannot reach an inside address.
 * Every redirect is a new URL and is checked the same way. Bodies and time are capped. Failures are
 * `SafeFetchError`s with a code a caller can act on and a message a person can read.
 */

export type SafeFetchErrorCode =
  | 'invalid_url'
  | 'forbidden_scheme'
  | 'forbidden_address'
  | 'dns_failed'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
    /** The URL of the hop that failed (after redirects, the last one tried). */
    readonly url: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Answers every address a host name resolves to. Injected by tests (DNS rebinding); the default asks the OS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Largest body accepted, in bytes (default 10 MiB). */
  maxBytes?: number;
  /** Time for the whole exchange, redirects included, in ms (default 10 s). */
  timeoutMs?: number;
  /** 'follow' follows up to `maxRedirects` (default 3), each re-checked; 'manual' returns the 3xx answer. */
  redirect?: 'follow' | 'manual';
  maxRedirects?: number;
  resolver?: Resolver;
  /**
   * FOR TESTS ONLY: exact origins (`http://127.0.0.1:4517`) that may be reached although their address is not
   * public, so a test can talk to a fake server on this machine. Empty unless a caller passes it; nothing in
   * the server fills it by default.
   */
  testOnlyAllowedOrigins?: readonly string[];
}

export interface SafeFetchResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
  /** The address the connection was made to. */
  address: string;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Parses `raw` and refuses anything but http(s) without credentials in it. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('invalid_url', 'The address is not a valid URL.', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError(
      'forbidden_scheme',
      `Only http and https addresses can be fetched, not ${url.protocol}`,
      raw,
    );
  }
  if (url.username || url.password) {
    throw new SafeFetchError('invalid_url', 'The address must not carry a user name or password.', raw);
  }
  return url;
}

/** The address to connect to for `url`, after checking every address its host resolves to. */
export async function checkedAddress(
  url: URL,
  resolver: Resolver,
  testOnlyAllowedOrigins: readonly string[] = [],
): Promise<ResolvedAddress> {
  // URL keeps IPv6 literals in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new SafeFetchError('dns_failed', `The host ${host} could not be found.`, url.href);
    }
    if (addresses.length === 0) {
      throw new SafeFetchError('dns_failed', `The host ${host} could not be found.`, url.href);
    }
  }
  if (testOnlyAllowedOrigins.includes(url.origin)) return addresses[0]!;
  // One inside address among the answers is enough to refuse: a host that mixes them is not to be trusted.
  for (const a of addresses) {
    if (refusedAddress(a.address)) {
      // Neither the inside address nor its kind is named: the answer must not map the server's network.
      throw new SafeFetchError(
        'forbidden_address',
        `The host ${host} is not a public address; only public addresses can be reached.`,
        url.href,
      );
    }
  }
  return addresses[0]!;
}

/** A lookup that always answers the checked address, whatever the name: the connection cannot be re-pointed. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.redirect === 'manual' ? 0 : (options.maxRedirects ?? DEFAULT_MAX_REDIRECTS);
  const resolver = options.resolver ?? systemResolver;
  const deadline = Date.now() + timeoutMs;

  let hop: Hop = {
    url: parseFetchUrl(rawUrl),
    method: options.method ?? 'GET',
    headers: { ...options.headers },
    body: options.body,
  };
  for (let redirects = 0; ; redirects++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw timeoutError(hop.url, timeoutMs);
    const pinned = await withDeadline(
      checkedAddress(hop.url, resolver, options.testOnlyAllowedOrigins),
      remaining,
      hop.url,
      timeoutMs,
    );
    const res = await requestOnce(hop, pinned, maxBytes, deadline, timeoutMs);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.status) || !location || options.redirect === 'manual') return res;
    if (redirects >= maxRedirects) {
      throw new SafeFetchError('too_many_redirects', `More than ${maxRedirects} redirects.`, hop.url.href);
    }
    hop = nextHop(hop, res.status, location);
  }
}

function nextHop(prev: Hop, status: number, location: string): Hop {
  let target: URL;
  try {
    target = new URL(location, prev.url);
  } catch {
    throw new SafeFetchError('invalid_url', 'The server redirected to an invalid URL.', prev.url.href);
  }
  const url = parseFetchUrl(target.href);
  const headers = { ...prev.headers };
  // A credential meant for one origin never follows a redirect to another.
  if (url.origin !== prev.url.origin) {
    for (const h of Object.keys(headers)) if (/^(authorization|cookie)$/i.test(h)) delete headers[h];
  }
  // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
  if (status === 303 || ((status === 301 || status === 302) && prev.method === 'POST')) {
    for (const h of Object.keys(headers)) if (/^content-(type|length)$/i.test(h)) delete headers[h];
    return { url, method: 'GET', headers };
  }
  return { url, method: prev.method, headers, body: prev.body };
}

function timeoutError(url: URL, timeoutMs: number) {
  return new SafeFetchError('timeout', `No complete answer within ${timeoutMs} ms.`, url.href);
}

async function withDeadline<T>(p: Promise<T>, ms: number, url: URL, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timeoutError(url, timeoutMs)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function requestOnce(
  hop: Hop,
  pinned: ResolvedAddress,
  maxBytes: number,
  deadline: number,
  timeoutMs: number,
): Promise<SafeFetchResponse> {
  const lookup = pinnedLookup(pinned);
  const isHttps = hop.url.protocol === 'https:';
  // A fresh agent per hop, without keep-alive: no socket is shared with a connection made for another address.
  const agent = isHttps ? new https.Agent({ lookup, keepAlive: false }) : new http.Agent({ lookup, keepAlive: false });
  const headers: Record<string, string> = { ...hop.headers };
  if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
  return new Promise<SafeFetchResponse>((resolve, reject) => {
    let settled = false;
    const finish = (err: SafeFetchError | null, res?: SafeFetchResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      agent.destroy();
      if (err) reject(err);
      else resolve(res!);
    };
    const req = (isHttps ? https : http).request(hop.url, {
      method: hop.method,
      headers,
      agent,
      lookup,
    });
    const timer = setTimeout(
      () => {
        finish(timeoutError(hop.url, timeoutMs));
        req.destroy();
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      finish(new SafeFetchError('network', `Could not reach ${hop.url.host}: ${e.code ?? e.message}.`, hop.url.href));
    });
    req.on('response', (res) => {
      // Belt and braces: the socket must be connected to the address that was checked.
      const remote = res.socket.remoteAddress?.replace(/^::ffff:/, '');
      if (remote && remote !== pinned.address.replace(/^::ffff:/, '')) {
        req.destroy();
        finish(
          new SafeFetchError('forbidden_address', `Connected to ${remote}, not the checked address.`, hop.url.href),
        );
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        req.destroy();
        finish(tooLarge(hop.url, maxBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          req.destroy();
          finish(tooLarge(hop.url, maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () =>
        finish(null, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          url: hop.url.href,
          address: pinned.address,
        }),
      );
      res.on('error', () =>
        finish(new SafeFetchError('network', `The answer from ${hop.url.host} was cut off.`, hop.url.href)),
      );
    });
    if (hop.body !== undefined) req.end(hop.body);
    else req.end();
  });
}

function tooLarge(url: URL, maxBytes: number) {
  return new SafeFetchError('too_large', `The answer is larger than ${maxBytes} bytes.`, url.href);
}
