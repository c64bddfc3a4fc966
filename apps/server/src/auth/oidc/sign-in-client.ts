import * as oidc from 'openid-client';
import type { Config } from '../../config.ts';
import type { FlowState } from './flow-cookie.ts';
import { LOCAL_CLIENT_ID, localClientSecret, localIssuer, signInCallbackUrl } from './local-provider.ts';

/** Which OpenID provider "Continue with Google" talks to: Google when configured, else the built-in one. */
export interface SignInProvider {
  /** Stored in identities.provider; subjects are only unique per provider. */
  name: 'google' | 'local';
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Google: always offer the account picker. Local: always show "Choose an account". */
  prompt: 'select_account' | 'login';
}

export function signInProviderFor(config: Config): SignInProvider {
  if (config.google) {
    return {
      name: 'google',
      issuer: config.google.issuer,
      clientId: config.google.clientId,
      clientSecret: config.google.clientSecret,
      prompt: 'select_account',
    };
  }
  return {
    name: 'local',
    issuer: localIssuer(config),
    clientId: LOCAL_CLIENT_ID,
    clientSecret: localClientSecret(config),
    prompt: 'login',
  };
}

/** The verified identity an ID token vouches for. */
export interface VerifiedIdentity {
  provider: SignInProvider['name'];
  subject: string;
  email: string;
  emailVerified: boolean;
}

export interface SignInClient {
  /** Builds the provider's authorization URL and the state the callback will need. */
  start(frontendRedirectUri: string): Promise<{ authorizationUrl: string; flow: FlowState }>;
  /** Exchanges the code (checking state, PKCE and nonce) and returns who signed in. Throws on any mismatch. */
  finish(callbackUrl: URL, flow: FlowState): Promise<VerifiedIdentity>;
}

/** One per app: caches the provider's discovery document, re-fetching it after a failure. */
export function createSignInClient(config: Config): SignInClient {
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  const configurationFor = (p: SignInProvider) => {
    const key = `${p.issuer} ${p.clientId}`;
    let found = discovered.get(key);
    if (!found) {
      // Plain http is only ever the local provider on this machine (or a dev proxy in front of it).
      const options = p.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined;
      found = oidc.discovery(new URL(p.issuer), p.clientId, undefined, oidc.ClientSecretBasic(p.clientSecret), options);
      found.catch(() => discovered.delete(key));
      discovered.set(key, found);
    }
    return found;
  };

  return {
    async start(frontendRedirectUri) {
      const provider = signInProviderFor(config);
      const configuration = await configurationFor(provider);
      const flow: FlowState = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        redirectUri: frontendRedirectUri,
        binding: oidc.randomState(),
      };
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: signInCallbackUrl(config),
        scope: 'openid email',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
        prompt: provider.prompt,
      });
      return { authorizationUrl: url.href, flow };
    },

    async finish(callbackUrl, flow) {
      const provider = signInProviderFor(config);
      const configuration = await configurationFor(provider);
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token claims');
      return {
        provider: provider.name,
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : '',
        // Google sends a boolean; some providers send the string "true".
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      };
    },
  };
}
