import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderWithProviders } from '@/test/render';
import { AppRoutes } from './routes';

const PROTECTED = [
  '/new-video',
  '/generated-videos',
  '/jobs',
  '/jobs/7',
  '/product-in-hand',
  '/product-in-hand/new',
  '/product-in-hand/3/select-actor',
  '/product-in-hand/3/merge',
  '/ai-actor-video',
  '/ai-actor-video/new',
  '/lip-sync',
  '/lip-sync/new',
  '/projects',
  '/projects/new',
  '/projects/3',
  '/generate',
  '/support',
  '/settings',
  '/avatars',
  '/credits',
  '/batches',
  '/batches/3',
  '/hook-packs',
  '/hook-packs/new',
  '/hook-packs/new/5',
  '/hook-packs/jobs/5',
  '/hook-packs/5/download',
];

const sidebar = () => document.querySelector('[data-sidebar="sidebar"]');
const authed = { status: 'authenticated' as const, user: makeUser() };

beforeEach(() => {
  // Pages that load data stay in their loading state: the test is about routing, not data.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => {})),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('route table', () => {
  it.each(PROTECTED)(
    '%s resolves inside the sidebar shell',
    async (path) => {
      renderWithProviders(<AppRoutes />, { route: path, auth: authed });
      await waitFor(() => expect(sidebar()).not.toBeNull(), { timeout: 10_000 });
      // The lazily loaded page replaced the suspense fallback.
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading page' })).toBeNull(), {
        timeout: 10_000,
      });
      // Matched by the table, not by the catch-all (some pages redirect within their feature, e.g. merge
      // without selected actors goes back to select-actor, so only the fallbacks are ruled out).
      expect(screen.getByTestId('location').textContent).not.toMatch(/^\/(login)?$/);
      expect(sidebar()).not.toBeNull();
    },
    15_000,
  );

  it.each([
    ['/ai-actor-video', 'AI actor video'],
    ['/lip-sync/new', 'Lip sync existing content'],
  ])('%s is the placeholder titled %s', async (path, title) => {
    renderWithProviders(<AppRoutes />, { route: path, auth: authed });
    expect(await screen.findByRole('heading', { level: 1, name: title }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it.each(['/', '/register'])('%s is the register screen without a sidebar', async (path) => {
    renderWithProviders(<AppRoutes />, { route: path, auth: { status: 'unauthenticated' } });
    expect(await screen.findByText('Create an account', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText(/password/i)).toBeNull();
    expect(sidebar()).toBeNull();
  });

  it('/login is the Google-only login card', async () => {
    renderWithProviders(<AppRoutes />, { route: '/login', auth: { status: 'unauthenticated' } });
    expect(await screen.findByText('Login', { exact: true }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.getByText(/Don't have an account\?/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(sidebar()).toBeNull();
  });

  it('/landing is public and has no sidebar', async () => {
    renderWithProviders(<AppRoutes />, { route: '/landing', auth: { status: 'unauthenticated' } });
    expect(await screen.findByRole('link', { name: 'Start Free Trial' }, { timeout: 10_000 })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    // The free trial is stated as what it buys (decision 102), not as a number of "free videos".
    expect(screen.getByText(/one hook pack of 12 videos .* — no credit card required/)).toBeInTheDocument();
    expect(sidebar()).toBeNull();
  });

  it('an unknown path redirects to / (replace)', async () => {
    renderWithProviders(<AppRoutes />, { route: '/definitely/not/a/page', auth: { status: 'unauthenticated' } });
    expect(await screen.findByText('Create an account', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('a protected route without a session goes to /login', async () => {
    renderWithProviders(<AppRoutes />, { route: '/credits', auth: { status: 'unauthenticated' } });
    expect(await screen.findByText('Login', { exact: true }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });
});
