import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { __resetApiClientForTests } from '@/lib/api-client';
import { jsonResponse, LocationProbe, makeUser, testQueryClient } from '@/test/render';
import { AuthProvider, useAuth } from './auth-provider';
import { spyOnToasts } from '../../test/toasts';

spyOnToasts();

const current: { auth: ReturnType<typeof useAuth> | null } = { auth: null };
function Probe() {
  const auth = useAuth();
  useEffect(() => {
    current.auth = auth;
  });
  return <p data-testid="status">{auth.status}</p>;
}

function renderAt(route: string) {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={[route]}>
        <AuthProvider>
          <Probe />
          <LocationProbe />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  __resetApiClientForTests();
  fetchMock = vi.fn(async () => jsonResponse(makeUser()));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('AuthProvider', () => {
  it('without a session is unauthenticated and makes no call', () => {
    renderAt('/landing');
    expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('with a session fetches GET /api/user/me on load', async () => {
    localStorage.setItem('access_token', 'a');
    localStorage.setItem('refresh_token', 'r');
    renderAt('/projects');
    expect(screen.getByTestId('status')).toHaveTextContent('loading');
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/user/me');
    expect(current.auth?.user?.email).toBe('ada@example.com');
  });

  it('does not fetch the user on the Google callback path', () => {
    localStorage.setItem('access_token', 'a');
    renderAt('/auth/google/callback?access_token=a&refresh_token=r');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('logout posts /auth/logout, clears the session even on failure and goes to /login', async () => {
    localStorage.setItem('access_token', 'a');
    localStorage.setItem('refresh_token', 'r');
    renderAt('/settings');
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    fetchMock.mockImplementation(async () => jsonResponse({ detail: 'down' }, 500));

    await act(() => current.auth!.logout());

    const logoutCall = fetchMock.mock.calls.find((c) => String(c[0]) === '/api/auth/logout')!;
    expect(JSON.parse(String((logoutCall[1] as RequestInit).body))).toEqual({ refresh_token: 'r' });
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('a failed refresh sends a protected screen to /login', async () => {
    localStorage.setItem('access_token', 'expired');
    localStorage.setItem('refresh_token', 'r');
    fetchMock.mockImplementation(async () => jsonResponse({ detail: 'Not authenticated' }, 401));
    renderAt('/jobs/3');

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated');
    expect(sessionStorage.getItem('hookreel.return_to')).toBe('/jobs/3');
  });
});
