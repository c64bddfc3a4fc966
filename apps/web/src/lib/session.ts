import { SESSION_KEYS, type TokenPair } from '@hookreel/contracts';

/**
 * The browser session: tokens and OAuth bookkeeping in localStorage under fixed keys (access_token, refresh_token…), plus the
 * location the guard remembered before sending the user to /login (sessionStorage, survives the OAuth round trip).
 */
const RETURN_TO_KEY = 'hookreel.return_to';

type Listener = () => void;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((l) => l());

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export const session = {
  getAccessToken: () => read(SESSION_KEYS.accessToken),
  getRefreshToken: () => read(SESSION_KEYS.refreshToken),
  hasSession: () => Boolean(read(SESSION_KEYS.accessToken) || read(SESSION_KEYS.refreshToken)),

  setTokens(tokens: TokenPair) {
    window.localStorage.setItem(SESSION_KEYS.accessToken, tokens.access_token);
    window.localStorage.setItem(SESSION_KEYS.refreshToken, tokens.refresh_token);
    emit();
  },

  /** Clears tokens and the OAuth bookkeeping keys. */
  clear() {
    for (const key of Object.values(SESSION_KEYS)) window.localStorage.removeItem(key);
    emit();
  },

  markOAuthStart(callbackUrl: string) {
    window.localStorage.setItem(SESSION_KEYS.oauthStartTime, String(Date.now()));
    window.localStorage.setItem(SESSION_KEYS.oauthCallbackUrl, callbackUrl);
  },

  markOAuthLogin() {
    window.localStorage.setItem(SESSION_KEYS.oauthLoginTime, String(Date.now()));
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === SESSION_KEYS.accessToken || e.key === SESSION_KEYS.refreshToken) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  },

  rememberReturnTo(path: string) {
    try {
      window.sessionStorage.setItem(RETURN_TO_KEY, path);
    } catch {
      /* storage unavailable: the user lands on /projects instead */
    }
  },

  /** Reads and forgets the remembered location; only same-origin app paths are honoured. */
  takeReturnTo(): string | null {
    try {
      const value = window.sessionStorage.getItem(RETURN_TO_KEY);
      window.sessionStorage.removeItem(RETURN_TO_KEY);
      if (!value || !value.startsWith('/') || value.startsWith('//')) return null;
      if (isPublicPath(value.split(/[?#]/)[0] ?? value)) return null;
      return value;
    } catch {
      return null;
    }
  },
};

export const AUTH_CALLBACK_PATHS = ['/auth/callback', '/auth/google/callback'] as const;

export const isAuthCallbackPath = (pathname: string) => pathname.startsWith('/auth/') && pathname.endsWith('/callback');

/** Screens from which an expired session does not bounce the user to /login (docs/product.md#messages). */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname === '/login' ||
    pathname === '/register' ||
    pathname === '/landing' ||
    isAuthCallbackPath(pathname)
  );
}
