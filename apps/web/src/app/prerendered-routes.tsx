import type { ComponentType } from 'react';
import { Route } from 'react-router';

/** The public screens rendered to HTML at build time (decision 114): path → the page's name. */
export const PRERENDERED_ROUTES = {
  '/': 'register',
  '/register': 'register',
  '/login': 'login',
  '/landing': 'landing',
} as const satisfies Record<string, string>;

type PrerenderedPage = (typeof PRERENDERED_ROUTES)[keyof typeof PRERENDERED_ROUTES];

/**
 * Their routes, for `<Routes>` in both the app and the prerender, so the hydrated tree matches the markup. The
 * pages are passed in: lazy in the app, imported directly in the prerender. A function, not a component: `<Routes>`
 * reads its children's `<Route>` elements.
 */
export const prerenderedRoutes = (pages: Record<PrerenderedPage, ComponentType>) => (
  <>
    {Object.entries(PRERENDERED_ROUTES).map(([path, name]) => {
      const Page = pages[name];
      return <Route key={path} path={path} element={<Page />} />;
    })}
  </>
);
