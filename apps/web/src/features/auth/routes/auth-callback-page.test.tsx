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
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

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

/** The server's answers: the code exchange gives tokens, everything else the user (unless a test says otherwise). */
const serverAnswers =
  (me: () => Response = () => jsonResponse(makeUser())) =>
  async (input: RequestInfo | URL) =>
    String(input).endsWith('/auth/exchange') ? jsonResponse({ access_token: 'a1', refresh_token: 'r1' }) : me();

beforeEach(() => {
  vi.useFakeTimers();
  __resetApiClientForTests();
  fetchMock = vi.fn(serverAnswers());
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

  it('treats a missing code as a failure', async () => {
    renderCallback('/auth/callback');
    await advance(0);

    expect(screen.getByRole('status')).toHaveTextContent('Authentication failed: No tokens returned');
    expect(toast.error).toHaveBeenCalledWith('Login failed. Please try again.');
    expect(localStorage.getItem('access_token')).toBeNull();
    await advance(1500);
    expect(location()).toBe('/login');
  });

  it("never takes tokens from the URL: a link with someone else's tokens signs nobody in (login CSRF)", async () => {
    renderCallback('/auth/callback?access_token=attackers-a&refresh_token=attackers-r');
    await advance(0);

    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('Authentication failed: No tokens returned');
    await advance(1500);
    expect(location()).toBe('/login');
  });

  it('shows why the server refused the code and stores nothing', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ detail: 'This sign-in has expired or was already used. Please sign in again.' }, 401),
    );
    renderCallback('/auth/callback?code=someone-elses');
    await advance(0);

    expect(screen.getByRole('status')).toHaveTextContent(
      'Authentication failed: This sign-in has expired or was already used. Please sign in again.',
    );
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await advance(1500);
    expect(location()).toBe('/login');
  });

  it('exchanges the code by POST, stores the tokens, confirms the user and goes to /projects after 1 s', async () => {
    const client = renderCallback('/auth/google/callback?code=c1');
    await advance(0);

    expect(localStorage.getItem('access_token')).toBe('a1');
    expect(localStorage.getItem('refresh_token')).toBe('r1');
    expect(localStorage.getItem('oauth_login_time')).toMatch(/^\d+$/);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/auth/exchange');
    const exchangeInit = fetchMock.mock.calls[0]![1] as RequestInit;
    expect(exchangeInit.method).toBe('POST');
    expect(JSON.parse(String(exchangeInit.body))).toEqual({ code: 'c1' });
    expect(String(fetchMock.mock.calls[1]![0])).toBe('/api/user/me');
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
    renderCallback('/auth/callback?code=c1');
    await advance(0);
    await advance(1000);
    expect(location()).toBe('/jobs/42?tab=logs');
  });

  it('tries the user fetch 3 times (500 ms before retries, 1 s after failures) then goes to /projects after 1.5 s', async () => {
    fetchMock.mockImplementation(serverAnswers(() => jsonResponse({ detail: 'boom' }, 500)));
    renderCallback('/auth/google/callback?code=c1');

    // One exchange, then the user fetches.
    await advance(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await advance(1499);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await advance(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await advance(1500);
    expect(fetchMock).toHaveBeenCalledTimes(4);

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
    let meCalls = 0;
    fetchMock.mockImplementation(
      serverAnswers(() => (++meCalls === 1 ? jsonResponse({ detail: 'boom' }, 503) : jsonResponse(makeUser()))),
    );
    renderCallback('/auth/google/callback?code=c1');

    await advance(1500);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('status')).toHaveTextContent(CALLBACK_SUCCESS_TEXT);
    await advance(1000);
    expect(location()).toBe('/projects');
  });
});
