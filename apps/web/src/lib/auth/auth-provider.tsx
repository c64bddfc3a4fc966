import { MESSAGES, type User } from '@hookreel/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { setSessionExpiredHandler, shouldRedirectToLogin } from '@/lib/api-client';
import { meQueryKey, meQueryOptions } from '@/lib/auth/api/get-me';
import { logoutRequest } from '@/lib/auth/api/logout';
import { isAuthCallbackPath, session } from '@/lib/session';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthContextValue {
  status: AuthStatus;
  user: User | null;
  isAdmin: boolean;
  /** Re-fetches GET /user/me (credits refresh, after 402s, after notify changes). */
  refreshUser: () => Promise<User | null>;
  /** POST /auth/logout, clear the session even if it fails, go to /login. `silent` skips the failure toast. */
  logout: (options?: { silent?: boolean }) => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const subscribe = (cb: () => void) => session.subscribe(cb);
const getHasSession = () => session.hasSession();

/**
 * Authentication state (docs/product.md#states). On load the current user is fetched unless on the OAuth callback path
 * (the callback page fetches it itself after storing the tokens). Must be rendered inside the router.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const hasSession = useSyncExternalStore(subscribe, getHasSession, getHasSession);
  const onCallback = isAuthCallbackPath(location.pathname);

  const me = useQuery({ ...meQueryOptions(), enabled: hasSession && !onCallback });

  const locationRef = useRef(location);
  useEffect(() => {
    locationRef.current = location;
  }, [location]);

  // A session that cannot be renewed: drop user data and go to /login, remembering where the user was.
  useEffect(() => {
    setSessionExpiredHandler(() => {
      queryClient.removeQueries({ queryKey: meQueryKey });
      const { pathname, search, hash } = locationRef.current;
      if (shouldRedirectToLogin(pathname)) {
        session.rememberReturnTo(`${pathname}${search}${hash}`);
        navigate('/login', { replace: true });
      }
    });
    return () => setSessionExpiredHandler(null);
  }, [navigate, queryClient]);

  const user = hasSession ? (me.data ?? null) : null;
  let status: AuthStatus;
  if (!hasSession) status = 'unauthenticated';
  else if (user) status = 'authenticated';
  else if (me.isError) status = 'unauthenticated';
  else status = 'loading';

  const refreshUser = useCallback(async () => {
    if (!session.hasSession()) return null;
    try {
      return await queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 });
    } catch {
      return null;
    }
  }, [queryClient]);

  const logout = useCallback(
    async (options?: { silent?: boolean }) => {
      try {
        await logoutRequest();
      } catch {
        if (!options?.silent) toast.error(MESSAGES.auth.logoutFailed);
      } finally {
        session.clear();
        navigate('/login');
        queryClient.clear();
        session.takeReturnTo(); // a deliberate logout does not come back to where it started
      }
    },
    [navigate, queryClient],
  );

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, isAdmin: Boolean(user?.is_admin), refreshUser, logout }),
    [status, user, refreshUser, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** Test/story helper: provide a fixed auth state without network. */
export function AuthContextStub({ value, children }: { value: Partial<AuthContextValue>; children: ReactNode }) {
  const full: AuthContextValue = {
    status: value.user ? 'authenticated' : 'unauthenticated',
    user: null,
    isAdmin: Boolean(value.user?.is_admin),
    refreshUser: async () => value.user ?? null,
    logout: async () => {},
    ...value,
  };
  return <AuthContext.Provider value={full}>{children}</AuthContext.Provider>;
}
