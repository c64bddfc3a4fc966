import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'hookreel';
const AUDIENCE = 'hookreel-api';
/** A ticket opens the job event stream and nothing else: its own audience, so it is no access token. */
const EVENTS_AUDIENCE = 'hookreel-job-events';
const EVENTS_TICKET_TTL_SEC = 60;

export interface TokenClaims {
  userId: number;
  /** Milliseconds since the epoch (the `iat` claim is only whole seconds, too coarse to order sign-ins). */
  issuedAtMs: number;
}

export interface AccessTokenSigner {
  sign(userId: number): Promise<string>;
  /** Returns the user id, or null for any invalid, expired or foreign token. */
  verify(token: string): Promise<number | null>;
  /** The user id and when the token was issued, or null. */
  verifyClaims(token: string): Promise<TokenClaims | null>;
  /** A short-lived, single-purpose ticket for GET /api/jobs/events (its URL is the only way EventSource has). */
  signEventsTicket(userId: number): Promise<string>;
  verifyEventsTicket(ticket: string): Promise<TokenClaims | null>;
  readonly eventsTicketTtlSec: number;
}

/** Short-lived HS256 access tokens; refresh tokens are opaque and live in the database. */
export function createAccessTokenSigner(secret: string, ttlSec: number): AccessTokenSigner {
  const key = new TextEncoder().encode(secret);
  const sign = (userId: number, audience: string, ttl: number) =>
    new SignJWT({ iat_ms: Date.now() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${ttl}s`)
      .sign(key);
  const verify = async (token: string, audience: string, maxAgeSec: number): Promise<TokenClaims | null> => {
    try {
      // exp and iat are required, and the token may be no older than its kind's TTL: a token signed without an
      // expiry, or with a far one, would otherwise work for ever.
      const { payload } = await jwtVerify(token, key, {
        issuer: ISSUER,
        audience,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
        maxTokenAge: maxAgeSec,
      });
      const id = Number(payload.sub);
      const issuedAtMs = typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000;
      return Number.isSafeInteger(id) && id > 0 ? { userId: id, issuedAtMs } : null;
    } catch {
      return null;
    }
  };
  return {
    sign: (userId) => sign(userId, AUDIENCE, ttlSec),
    verify: async (token) => (await verify(token, AUDIENCE, ttlSec))?.userId ?? null,
    verifyClaims: (token) => verify(token, AUDIENCE, ttlSec),
    signEventsTicket: (userId) => sign(userId, EVENTS_AUDIENCE, EVENTS_TICKET_TTL_SEC),
    verifyEventsTicket: (ticket) => verify(ticket, EVENTS_AUDIENCE, EVENTS_TICKET_TTL_SEC),
    eventsTicketTtlSec: EVENTS_TICKET_TTL_SEC,
  };
}
