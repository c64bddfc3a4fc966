import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullScreenLoader } from '@/components/layout/full-screen-loader';
import { useAuth } from '@/lib/auth';
import { session } from '@/lib/session';

/**
 * Guard of every protected route: full-screen 'Loading...' while authentication is checked; when not
 * authenticated, redirect to /login remembering the origin (router state and sessionStorage, because the
 * Google round trip leaves the SPA).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();

  if (status === 'loading') return <FullScreenLoader />;
  if (status === 'unauthenticated') {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return (
      <>
        <RememberOrigin path={from} />
        <Navigate to="/login" replace state={{ from }} />
      </>
    );
  }
  return <>{children}</>;
}

function RememberOrigin({ path }: { path: string }) {
  useEffect(() => {
    session.rememberReturnTo(path);
  }, [path]);
  return null;
}
