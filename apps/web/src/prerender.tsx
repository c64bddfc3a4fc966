import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { Routes, StaticRouter } from 'react-router';
import { PRERENDERED_ROUTES, prerenderedRoutes } from '@/app/prerendered-routes';
import { AppProviders } from '@/app/providers';
import { FullScreenLoader } from '@/components/layout/full-screen-loader';
import { LoginPage } from '@/features/auth/routes/login-page';
import { RegisterPage } from '@/features/auth/routes/register-page';
import { LandingPage } from '@/features/landing/routes/landing-page';

// prerender.mjs reads the list from this bundle.
export { PRERENDERED_ROUTES };

/**
 * The public screens (landing, login, register) rendered to HTML at build time, so they paint with the CSS alone,
 * before any JavaScript runs (decision 114). The tree has the shape of `AppRoutes` (providers, one Suspense
 * boundary, the route's page) so the app, once loaded, hydrates this markup instead of replacing it.
 */
export function render(path: string): string {
  return renderToString(
    <StaticRouter location={path}>
      <AppProviders>
        <Suspense fallback={<FullScreenLoader />}>
          <Routes>{prerenderedRoutes({ register: RegisterPage, login: LoginPage, landing: LandingPage })}</Routes>
        </Suspense>
      </AppProviders>
    </StaticRouter>,
  );
}
