import { MESSAGES, roundCredits } from '@hookreel/contracts';

/** An error that carries the HTTP status and the `detail` people see. Services throw these; routes stay thin. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the `{detail}` body (a 402's missing amount). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string = MESSAGES.server.unauthorized) => new HttpError(401, detail);
/** 402 with what the operation costs, what the user has and what is missing, in credits. */
export const paymentRequired = (detail: string, amounts?: { required: number; available: number }) =>
  new HttpError(
    402,
    detail,
    {},
    amounts ? { ...amounts, missing: roundCredits(amounts.required - amounts.available) } : {},
  );
export const forbidden = (detail: string = MESSAGES.server.forbidden) => new HttpError(403, detail);
/** Another user's resource is indistinguishable from a missing one. */
export const notFound = (detail: string = MESSAGES.server.notFound) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const payloadTooLarge = (detail: string) => new HttpError(413, detail);
export const unprocessable = (detail: string) => new HttpError(422, detail);
export const serviceUnavailable = (detail: string = MESSAGES.server.serviceUnavailable) =>
  new HttpError(503, detail, { 'retry-after': '5' });

/** No room to write: the disk (or quota, or file-size limit) under DATA_DIR, or SQLite's file on it. */
const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);
/**
 * A dependency that is down or overloaded, not a bug: Node socket errors (database, Redis, bucket), PostgreSQL
 * connection and shutdown states (class 08, 57P01-57P03, 53300), SQLite lock timeouts.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** Failures that carry no code: pg pool and client timeouts and lost connections, ioredis giving up. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection is closed|Reached the max retries per request limit/i;

/**
 * Whether an error means "a dependency is down or full, try again" (503 with Retry-After), and which kind.
 * Looks through `cause` chains, since SDKs and fetch wrap the socket error.
 */
export function dependencyFailure(error: unknown): 'unavailable' | 'storage-full' | null {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const err = e as { code?: unknown; message?: unknown; $fault?: unknown; $metadata?: { httpStatusCode?: number } };
    const code = typeof err.code === 'string' ? err.code : '';
    if (STORAGE_FULL_CODES.has(code)) return 'storage-full';
    if (UNAVAILABLE_CODES.has(code)) return 'unavailable';
    if (UNAVAILABLE_MESSAGE.test(String(err.message ?? ''))) return 'unavailable';
    // The S3 SDK has already retried (maxAttempts) when a 5xx or throttling answer reaches us.
    const status = err.$metadata?.httpStatusCode;
    if (err.$fault === 'server' || (typeof status === 'number' && (status >= 500 || status === 429))) {
      return 'unavailable';
    }
  }
  return null;
}
