import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

/** A long random secret for links and exchange codes (256 bits); only its SHA-256 is stored. */
export const newLinkSecret = (): string => randomBytes(32).toString('base64url');
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A 6-digit code for typing by hand; uniformly drawn. */
export const newSixDigitCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Short codes are stored as an HMAC keyed by the server secret and bound to their context, so a copy of the
 * database does not reveal them by trying all million values.
 */
export const hashShortCode = (serverSecret: string, context: string, code: string): string =>
  createHmac('sha256', `one-time-code:${serverSecret}`).update(`${context}:${code}`).digest('hex');

export const inMinutes = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString();
export const inSeconds = (seconds: number): string => new Date(Date.now() + seconds * 1000).toISOString();
