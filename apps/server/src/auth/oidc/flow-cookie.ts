import { createHash } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { z } from 'zod';

/**
 * What the callback needs to finish a sign-in that /auth/google/login started: kept in an encrypted,
 * httpOnly, ten-minute cookie rather than in a table, so any process in scale mode can finish the flow and
 * nothing needs cleaning up. Encrypted (not just signed) so the PKCE verifier never shows in the browser.
 */
export const FLOW_COOKIE = 'hookreel_oidc_flow';
export const FLOW_COOKIE_PATH = '/api/auth/google/callback';
export const FLOW_TTL_SEC = 600;

/** Carries the flow's binding from the callback to the exchange POST; lives as long as the exchange code. */
export const EXCHANGE_COOKIE = 'hookreel_signin';
export const EXCHANGE_COOKIE_PATH = '/api/auth/exchange';

const FlowState = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  /** The front-end page that receives the one-time code, already checked to be on our own origin. */
  redirectUri: z.string(),
  /**
   * A random value only this browser knows (it rides in this encrypted cookie, then in the exchange cookie):
   * the callback's one-time code is bound to it, so a code in someone else's browser is worthless.
   */
  binding: z.string(),
});
export type FlowState = z.infer<typeof FlowState>;

const AUDIENCE = 'hookreel-oidc-flow';

/** A key of its own, derived from the JWT secret, so this cookie can never be mistaken for an access token. */
const keyFrom = (secret: string) => createHash('sha256').update(`oidc-flow:${secret}`).digest();

export async function sealFlowState(secret: string, flow: FlowState): Promise<string> {
  return new EncryptJWT({ ...flow })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${FLOW_TTL_SEC}s`)
    .encrypt(keyFrom(secret));
}

/** Null for a missing, expired, tampered or foreign cookie. */
export async function openFlowState(secret: string, sealed: string | undefined): Promise<FlowState | null> {
  if (!sealed) return null;
  try {
    const { payload } = await jwtDecrypt(sealed, keyFrom(secret), { audience: AUDIENCE });
    const parsed = FlowState.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
