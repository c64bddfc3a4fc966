import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'hookreel';
const AUDIENCE = 'hookreel-api';

export interface AccessTokenSigner {
  sign(userId: number): Promise<string>;
  /** Returns the user id, or null for any invalid, expired or foreign token. */
  verify(token: string): Promise<number | null>;
}

/** Short-lived HS256 access tokens; refresh tokens are opaque and live in the database. */
export function createAccessTokenSigner(secret: string, ttlSec: number): AccessTokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(userId) {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSec}s`)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        const id = Number(payload.sub);
        return Number.isSafeInteger(id) && id > 0 ? id : null;
      } catch {
        return null;
      }
    },
  };
}
