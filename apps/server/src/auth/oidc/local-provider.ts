import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Configuration, Provider } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { createMemoryAdapterFactory } from './memory-adapter.ts';
import { renderMessagePage } from './pages.ts';

/**
 * The built-in OpenID provider that stands in for Google when no Google client is configured: same
 * authorization-code + PKCE flow, same client code, no Google account needed. A person proves an e-mail
 * address with the one-time link or code mailed to it (local-provider-http.ts), and is signed in as that address.
 */
export const LOCAL_OIDC_MOUNT_PATH = '/api/oidc';
export const LOCAL_CLIENT_ID = 'hookreel-web';
/** The path, under the mount path, of our sign-in-by-e-mail pages. */
export const INTERACTION_PATH = '/interaction';

export const localIssuer = (config: Config): string => `${config.publicUrl}${LOCAL_OIDC_MOUNT_PATH}`;

/** Derived, not stored: the client and the provider live in the same process and read the same secret. */
export const localClientSecret = (config: Config): string =>
  createHash('sha256').update(`local-oidc-client:${config.jwtSecret}`).digest('base64url');

/** Where both providers send the browser back with the code; the Google console needs this exact URL. */
export const signInCallbackUrl = (config: Config): string => `${config.publicUrl}/api/auth/google/callback`;

/**
 * Returns the provider for the current public URL, creating it on first use. Lazy because the issuer must
 * equal PUBLIC_URL, which tests only know once the server listens, and because the library (and its
 * start-up notices) is only loaded when the local provider is really used.
 */
export function createLocalProviderSource(config: Config): () => Promise<Provider> {
  const byIssuer = new Map<string, Promise<Provider>>();
  return () => {
    const issuer = localIssuer(config);
    let provider = byIssuer.get(issuer);
    if (!provider) {
      provider = buildProvider(config, issuer);
      provider.catch(() => byIssuer.delete(issuer));
      byIssuer.set(issuer, provider);
    }
    return provider;
  };
}

async function buildProvider(config: Config, issuer: string): Promise<Provider> {
  const { default: ProviderClass } = await import('oidc-provider');
  const signingKey = await loadOrCreateSigningKey(config.dataDir);
  const cookieKey = createHash('sha256').update(`local-oidc-cookies:${config.jwtSecret}`).digest('base64url');
  const configuration: Configuration = {
    adapter: createMemoryAdapterFactory(),
    clients: [
      {
        client_id: LOCAL_CLIENT_ID,
        client_secret: localClientSecret(config),
        redirect_uris: [signInCallbackUrl(config)],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [cookieKey] },
    pkce: { required: () => true },
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // Put the e-mail in the ID token itself, as Google does, so the client needs no userinfo call.
    conformIdTokenClaims: false,
    // The account id is the e-mail address itself, set only after the mailed link or code proved it.
    findAccount: (_ctx, accountId) => ({
      accountId,
      claims: () => ({ sub: accountId, email: accountId, email_verified: true }),
    }),
    interactions: { url: (_ctx, interaction) => `${LOCAL_OIDC_MOUNT_PATH}${INTERACTION_PATH}/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    // Seconds. Short on purpose: the provider only bridges one sign-in; our own refresh tokens keep people in.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 86_400, Session: 86_400 },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderMessagePage('Sign-in failed', String(out.error_description ?? out.error ?? 'Unknown error'));
    },
  };
  const provider = new ProviderClass(issuer, configuration);
  // Behind the proxies TRUST_PROXY names, X-Forwarded-* decide the URLs, as they do for Fastify; otherwise not.
  provider.proxy = config.trustProxy !== false;
  return provider;
}

/**
 * One RS256 key, made on first boot and kept in DATA_DIR, so ID tokens and provider cookies stay valid across
 * restarts. Created with 'wx' so two processes starting at once cannot overwrite each other's key.
 */
async function loadOrCreateSigningKey(dataDir: string): Promise<JWK> {
  const file = path.join(dataDir, 'oidc-signing-key.json');
  const existing = await readKey(file);
  if (existing) return existing;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const key: JWK = { ...jwk, alg: 'RS256', use: 'sig', kid: await calculateJwkThumbprint(jwk) };
  try {
    await writeFile(file, JSON.stringify(key), { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    const raced = await readKey(file);
    if (!raced) throw new Error(`cannot read or create ${file}`);
    return raced;
  }
}

/** The stored signing key: a private RSA JWK as `loadOrCreateSigningKey` writes it. */
const StoredSigningKey = z.looseObject({
  kty: z.literal('RSA'),
  alg: z.literal('RS256'),
  use: z.literal('sig'),
  kid: z.string().min(1),
  n: z.string().min(1),
  e: z.string().min(1),
  d: z.string().min(1),
  p: z.string().min(1),
  q: z.string().min(1),
  dp: z.string().min(1),
  dq: z.string().min(1),
  qi: z.string().min(1),
});

/** The key in `file`, or null when there is none yet or it is not a whole private RSA key. */
async function readKey(file: string): Promise<JWK | null> {
  try {
    return StoredSigningKey.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}
