import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Opaque refresh tokens: 32 random bytes; only their SHA-256 is stored, so a database leak yields no tokens. */
export const newRefreshToken = (): string => randomBytes(32).toString('base64url');

export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Every sign-in starts a family; each refresh continues it, so reuse of an old token can revoke them all. */
export const newTokenFamily = (): string => randomUUID();
