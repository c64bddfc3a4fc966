import { config } from '@/config';
import { session } from '@/lib/session';

/** The front-end page the server redirects back to with a one-time ?code= (exchanged by POST) or ?error=. */
export const GOOGLE_CALLBACK_PATH = '/auth/google/callback';

export function googleLoginUrl(origin: string = window.location.origin): string {
  const redirectUri = `${origin}${GOOGLE_CALLBACK_PATH}`;
  return `${config.apiBase}/auth/google/login?redirect_uri=${encodeURIComponent(redirectUri)}`;
}

/** Google login: a full browser redirect to GET /api/auth/google/login?redirect_uri=… (docs/product.md#sign-in). */
export function startGoogleLogin(): void {
  const origin = window.location.origin;
  session.markOAuthStart(`${origin}${GOOGLE_CALLBACK_PATH}`);
  window.location.assign(googleLoginUrl(origin));
}
