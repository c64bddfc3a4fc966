import { MESSAGES } from '@hookreel/contracts';
import { act, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { __resetApiClientForTests } from '@/lib/api-client';
import { session } from '@/lib/session';
import { jsonResponse, LocationProbe, makeUser, testQueryClient } from '@/test/render';
import { AuthCallbackPage, CALLBACK_SUCCESS_TEXT } from './auth-callback-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

function renderCallback(url: string) {
  const client = testQueryClient();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/auth/callback" element={<AuthCallbackPage />} />
          <Route path="/auth/google/callback" element={<AuthCallbackPage />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

const location = () => screen.getByTestId('location').textContent;
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.useFakeTimers();
  __resetApiClientForTests();
  fetchMock = vi.fn(async () => jsonResponse(makeUser()));
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('AuthCallbackPage', () => {
  it('shows the OAuth error and goes to /login after 1.5 s', async () => {
    renderCallback('/auth/google/callback?error=access_denied');
    await advance(0);

    expect(screen.getByRole('status')).toHaveTextContent('Authentication failed: access_denied');
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.auth.oauthError('access_denied'));
    expect(fetchMock).not.toHaveBeenCalled();

    await advance(1499);
    expect(location()).toBe('/auth/google/callback?error=access_denied');
    await advance(1);
    expect(location()).toBe('/login');
  });

  it('treats missing tokens as a failure', async () => {
    renderCallback('/auth/callback?access_token=only-one');
    await advance(0);

    expect(screen.getByRole('status')).toHaveTextContent('Authentication failed: No tokens returned');
    expect(toast.error).toHaveBeenCalledWith('Login failed. Please try again.');
    expect(localStorage.getItem('access_token')).toBeNull();
    await advance(1500);
    expect(location()).toBe('/login');
  });

  it('stores the tokens, confirms the user and goes to /projects after 1 s', async () => {
    const client = renderCallback('/auth/google/callback?access_token=a1&refresh_token=r1');
    await advance(0);

    expect(localStorage.getItem('access_token')).toBe('a1');
    expect(localStorage.getItem('refresh_token')).toBe('r1');
    expect(localStorage.getItem('oauth_login_time')).toMatch(/^\d+$/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/user/me');
    expect(screen.getByRole('status')).toHaveTextContent(CALLBACK_SUCCESS_TEXT);
    expect(toast.success).toHaveBeenCalledWith('Successfully logged in!');
    expect(client.getQueryData(['user', 'me'])).toMatchObject({ email: 'ada@example.com' });

    await advance(999);
    expect(location()).toMatch(/^\/auth\/google\/callback/);
    await advance(1);
    expect(location()).toBe('/projects');
  });

  it('returns to the location the guard remembered', async () => {
    session.rememberReturnTo('/jobs/42?tab=logs');
    renderCallback('/auth/callback?access_token=a1&refresh_token=r1');
    await advance(0);
    await advance(1000);
    expect(location()).toBe('/jobs/42?tab=logs');
  });

  it('tries the user fetch 3 times (500 ms before retries, 1 s after failures) then goes to /projects after 1.5 s', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ detail: 'boom' }, 500));
    renderCallback('/auth/google/callback?access_token=a1&refresh_token=r1');

    await advance(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await advance(1499);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await advance(1500);
    expect(fetchMock).toHaveBeenCalledTimes(3);

    expect(screen.getByRole('status')).toHaveTextContent(
      'Authentication may have succeeded, but we could not confirm it. Redirecting...',
    );
    expect(toast.success).not.toHaveBeenCalled();
    expect(localStorage.getItem('access_token')).toBe('a1');

    await advance(1499);
    expect(location()).toMatch(/^\/auth\/google\/callback/);
    await advance(1);
    expect(location()).toBe('/projects');
  });

  it('succeeds on a later attempt', async () => {
    fetchMock
      .mockImplementationOnce(async () => jsonResponse({ detail: 'boom' }, 503))
      .mockImplementation(async () => jsonResponse(makeUser()));
    renderCallback('/auth/google/callback?access_token=a1&refresh_token=r1');

    await advance(1500);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status')).toHaveTextContent(CALLBACK_SUCCESS_TEXT);
    await advance(1000);
    expect(location()).toBe('/projects');
  });
});
