import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { AppProviders } from '@/app/providers';
import { FullScreenLoader } from '@/components/layout/full-screen-loader';
import { LoginPage } from '@/features/auth/routes/login-page';
import { RegisterPage } from '@/features/auth/routes/register-page';
import { LandingPage } from '@/features/landing/routes/landing-page';

/**
 * The public screens (landing, login, register) rendered to HTML at build time, so they paint with the CSS alone,
 * before any JavaScript runs (decision 114). The tree has the shape of `AppRoutes` (providers, one Suspense
 * boundary, the route's page) so the app, once loaded, hydrates this markup instead of replacing it.
 */
export const PRERENDERED_ROUTES: Record<string, string> = {
  '/': 'register',
  '/register': 'register',
  '/login': 'login',
  '/landing': 'landing',
};

export function render(path: string): string {
  return renderToString(
    <StaticRouter location={path}>
      <AppProviders>
        <Suspense fallback={<FullScreenLoader />}>
          <Routes>
            <Route path="/" element={<RegisterPage />} />
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/landing" element={<LandingPage />} />
          </Routes>
        </Suspense>
      </AppProviders>
    </StaticRouter>,
  );
}
