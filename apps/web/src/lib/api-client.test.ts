import { SESSION_KEYS } from '@hookreel/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import {
  __resetApiClientForTests,
  api,
  ApiError,
  browser,
  NETWORK_RESEND_DELAY_MS,
  REFRESH_LOCK,
  setSessionExpiredHandler,
  shouldRedirectToLogin,
  SPEND_INTENTS_STORAGE,
  spendIntentOf,
} from './api-client';

type Call = { url: string; init: RequestInit };

function setTokens(access: string | null, refresh: string | null) {
  if (access) localStorage.setItem(SESSION_KEYS.accessToken, access);
  if (refresh) localStorage.setItem(SESSION_KEYS.refreshToken, refresh);
}

const authOf = (c: Call) => (c.init.headers as Record<string, string>).Authorization;

/** A fake API: /api/auth/refresh answers `refresh`; every other path accepts only `validToken`. */
function mockServer(opts: { validToken: string; refresh: () => Response | Promise<Response> }) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    if (url === '/api/auth/refresh') return opts.refresh();
    const auth = (init.headers as Record<string, string>).Authorization;
    if (auth !== `Bearer ${opts.validToken}`) return jsonResponse({ detail: 'Not authenticated' }, 401);
    return jsonResponse({ ok: true, url });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/**
 * navigator.locks as another tab sees it: `otherTab` runs first while holding the lock (as a tab that got there
 * first), then this tab's work. Records the lock names asked for.
 */
function installLocks(otherTab: () => void = () => undefined) {
  const names: string[] = [];
  const locks = {
    request: async (name: string, work: () => Promise<unknown>) => {
      names.push(name);
      otherTab();
      return work();
    },
  };
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  return { names };
}

beforeEach(() => {
  __resetApiClientForTests();
});
afterEach(() => {
  vi.unstubAllGlobals();
  __resetApiClientForTests();
  Reflect.deleteProperty(navigator, 'locks');
});

describe('api client', () => {
  it('sends JSON with the bearer token and cookies, and parses JSON', async () => {
    setTokens('tok', 'ref');
    const { calls } = mockServer({ validToken: 'tok', refresh: () => jsonResponse({}, 500) });

    const data = await api.post<{ ok: boolean }>(
      '/projects/',
      { name: 'x' },
      { query: { a: 1, sizes: ['small', 'large'] } },
    );

    expect(data.ok).toBe(true);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.url).toBe('/api/projects/?a=1&sizes=small%2Clarge');
    expect(call!.init.credentials).toBe('include');
    expect(call!.init.body).toBe('{"name":"x"}');
    expect(call!.init.headers).toMatchObject({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
  });

  it('sends FormData as multipart without forcing a content type', async () => {
    setTokens('tok', 'ref');
    const { calls } = mockServer({ validToken: 'tok', refresh: () => jsonResponse({}, 500) });
    const form = new FormData();
    form.append('name', 'Shoe');

    await api.post('/projects/', form);

    expect(calls[0]!.init.body).toBe(form);
    expect(calls[0]!.init.headers).not.toHaveProperty('Content-Type');
  });

  it("carries the server's detail on errors", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ detail: 'Insufficient credits to generate videos.' }, 402)),
    );

    const err = await api.post('/jobs/1/queue').catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 402, detail: 'Insufficient credits to generate videos.' });
    expect((err as Error).message).toBe('Insufficient credits to generate videos.');
  });

  it('refreshes once for N concurrent 401s and retries each request with the new token', async () => {
    setTokens('old', 'ref-1');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { calls } = mockServer({
      validToken: 'new',
      refresh: async () => {
        await gate; // keep the refresh in flight until every request has hit its 401
        return jsonResponse({ access_token: 'new', refresh_token: 'ref-2' });
      },
    });

    const N = 5;
    const pending = Array.from({ length: N }, (_, i) => api.get<{ ok: boolean }>(`/jobs/${i}`));
    await vi.waitFor(() => expect(calls.filter((c) => c.url !== '/api/auth/refresh')).toHaveLength(N));
    release();
    const results = await Promise.all(pending);

    expect(results.every((r) => r.ok)).toBe(true);
    const refreshCalls = calls.filter((c) => c.url === '/api/auth/refresh');
    expect(refreshCalls).toHaveLength(1);
    expect(JSON.parse(String(refreshCalls[0]!.init.body))).toEqual({ refresh_token: 'ref-1' });
    const retries = calls.filter((c) => c.url !== '/api/auth/refresh' && authOf(c) === 'Bearer new');
    expect(retries).toHaveLength(N);
    expect(localStorage.getItem('access_token')).toBe('new');
    expect(localStorage.getItem('refresh_token')).toBe('ref-2');
  });

  it('refreshes under the cross-tab lock', async () => {
    setTokens('old', 'ref-1');
    const { names } = installLocks();
    const { calls } = mockServer({
      validToken: 'new',
      refresh: () => jsonResponse({ access_token: 'new', refresh_token: 'ref-2' }),
    });

    await expect(api.get('/user/me')).resolves.toMatchObject({ ok: true });
    expect(names).toEqual([REFRESH_LOCK]);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('uses the tokens another tab renewed while this one waited, without spending the old refresh token', async () => {
    setTokens('old', 'ref-1');
    installLocks(() => setTokens('from-other-tab', 'ref-2'));
    const { calls } = mockServer({
      validToken: 'from-other-tab',
      refresh: () => jsonResponse({ detail: 'Refresh token reused' }, 401),
    });

    await expect(api.get('/user/me')).resolves.toMatchObject({ ok: true });
    expect(calls.map((c) => c.url)).toEqual(['/api/user/me', '/api/user/me']);
    expect(authOf(calls[1]!)).toBe('Bearer from-other-tab');
    expect(localStorage.getItem('refresh_token')).toBe('ref-2');
  });

  it('retries a request only once', async () => {
    setTokens('old', 'ref');
    // The refresh "works" but the server keeps refusing: one retry, then the 401 surfaces.
    const { calls } = mockServer({
      validToken: 'never',
      refresh: () => jsonResponse({ access_token: 'new', refresh_token: 'ref-2' }),
    });

    await expect(api.get('/user/me')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/api/user/me', '/api/auth/refresh', '/api/user/me']);
  });

  it('never refreshes on a 401 from the refresh or logout endpoints (no loop)', async () => {
    setTokens('old', 'ref');
    const handler = vi.fn();
    setSessionExpiredHandler(handler);
    const { calls } = mockServer({ validToken: 'x', refresh: () => jsonResponse({ detail: 'Invalid' }, 401) });

    await expect(api.post('/auth/refresh', { refresh_token: 'ref' })).rejects.toMatchObject({ status: 401 });
    await expect(api.post('/auth/logout')).rejects.toMatchObject({ status: 401 });

    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh', '/api/auth/logout']);
    expect(handler).not.toHaveBeenCalled();
  });

  it('clears the tokens and reports an expired session when the refresh fails', async () => {
    setTokens('old', 'ref');
    localStorage.setItem('oauth_login_time', '1');
    const handler = vi.fn();
    setSessionExpiredHandler(handler);
    mockServer({ validToken: 'x', refresh: () => jsonResponse({ detail: 'Invalid or expired refresh token' }, 401) });

    await Promise.all([
      expect(api.get('/projects/')).rejects.toMatchObject({ status: 401 }),
      expect(api.get('/jobs/')).rejects.toMatchObject({ status: 401 }),
    ]);

    expect(handler).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(localStorage.getItem('oauth_login_time')).toBeNull();
  });

  it.each([
    ['without a refresh token', () => setTokens('old', null)],
    [
      'when another tab signed out while this one waited for the lock',
      () => {
        setTokens('old', 'ref-1');
        installLocks(() => localStorage.clear());
      },
    ],
  ])('ends the session without calling refresh %s', async (_, arrange) => {
    arrange();
    const handler = vi.fn();
    setSessionExpiredHandler(handler);
    const { calls } = mockServer({ validToken: 'x', refresh: () => jsonResponse({}, 500) });

    await expect(api.get('/user/me')).rejects.toMatchObject({ status: 401 });

    expect(calls.map((c) => c.url)).toEqual(['/api/user/me']);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('access_token')).toBeNull();
  });
});

describe('redirect rule', () => {
  it.each([
    ['/projects', true],
    ['/jobs/3', true],
    ['/settings', true],
    ['/login', false],
    ['/register', false],
    ['/auth/callback', false],
    ['/auth/google/callback', false],
  ])('%s → redirect to /login: %s', (path, expected) => {
    expect(shouldRedirectToLogin(path)).toBe(expected);
  });

  it.each([
    ['/projects', ['/login']],
    ['/login', []],
    ['/register', []],
    ['/auth/google/callback', []],
  ])('the default handler on %s assigns %j', async (path, expected) => {
    setTokens('old', 'ref');
    vi.spyOn(browser, 'pathname').mockReturnValue(path);
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    mockServer({ validToken: 'x', refresh: () => jsonResponse({ detail: 'no' }, 401) });

    await expect(api.get('/user/me')).rejects.toBeInstanceOf(ApiError);

    expect(assign.mock.calls.map((c) => c[0])).toEqual(expected);
  });
});

const keyOf = (c: Call) => (c.init.headers as Record<string, string>)['Idempotency-Key'];

describe('credit-spending calls', () => {
  it('give each call its own Idempotency-Key and keep it across the resend after a token refresh', async () => {
    setTokens('old', 'ref');
    const { calls } = mockServer({
      validToken: 'new',
      refresh: () => jsonResponse({ access_token: 'new', refresh_token: 'ref-2' }),
    });

    await api.spend('/jobs/7/queue');
    await api.spend('/jobs/7/queue');

    const queued = calls.filter((c) => c.url === '/api/jobs/7/queue');
    expect(queued).toHaveLength(3); // 401, resend with the new token, then the second call
    expect(keyOf(queued[0]!)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(queued[1]!)).toBe(keyOf(queued[0]!));
    expect(keyOf(queued[2]!)).not.toBe(keyOf(queued[0]!));
  });

  it('resend once with the same key when the network drops the request, and only once', async () => {
    vi.useFakeTimers();
    try {
      setTokens('tok', 'ref');
      const keys: string[] = [];
      let failures = 1;
      vi.stubGlobal(
        'fetch',
        vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
          keys.push((init.headers as Record<string, string>)['Idempotency-Key']!);
          if (failures-- > 0) throw new TypeError('Failed to fetch');
          return jsonResponse({ id: 1 });
        }),
      );
      const first = api.spend<{ id: number }>('/merge/single');
      await vi.advanceTimersByTimeAsync(NETWORK_RESEND_DELAY_MS);
      await expect(first).resolves.toEqual({ id: 1 });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);

      failures = 2;
      const second = expect(api.spend('/merge/single')).rejects.toThrow('Failed to fetch');
      await vi.advanceTimersByTimeAsync(NETWORK_RESEND_DELAY_MS);
      await second;
      expect(keys).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('share one request while the same intent is in flight, so a double click charges once', async () => {
    setTokens('tok', 'ref');
    let release: (r: Response) => void = () => undefined;
    const fetchMock = vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const a = api.spend<{ id: number }>('/jobs/product-in-hand/3/queue-videos');
    const b = api.spend<{ id: number }>('/jobs/product-in-hand/3/queue-videos');
    // Another intent (another project) is its own request.
    const c = api.spend('/jobs/product-in-hand/4/queue-videos');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    release(jsonResponse({ id: 9 }));
    await Promise.resolve();
    expect(b).toBe(a);
    void c;
  });

  it('keep the key of an intent that failed for its retry (and for another tab), and end it on success', async () => {
    setTokens('tok', 'ref');
    const keys: string[] = [];
    let status = 500;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
        keys.push((init.headers as Record<string, string>)['Idempotency-Key']!);
        return status === 200 ? jsonResponse({ id: 1 }) : jsonResponse({ detail: 'boom' }, status);
      }),
    );
    const body = { hook_pack_id: 5, character_ids: [1, 2] };
    await expect(api.spend('/hooks/generate-preview', body)).rejects.toBeInstanceOf(ApiError);
    // Another tab sees the same intent's key in shared storage.
    expect(
      Object.values(JSON.parse(localStorage.getItem(SPEND_INTENTS_STORAGE)!)).map((v) => (v as { key: string }).key),
    ).toEqual([keys[0]]);
    status = 200;
    await api.spend('/hooks/generate-preview', body);
    expect(keys[1]).toBe(keys[0]);
    expect(JSON.parse(localStorage.getItem(SPEND_INTENTS_STORAGE)!)).toEqual({});
    // Done: the same click again is a new intent with a new key; other inputs are another intent.
    await api.spend('/hooks/generate-preview', body);
    expect(keys[2]).not.toBe(keys[0]);
    expect(spendIntentOf('/hooks/generate-preview', body)).not.toBe(
      spendIntentOf('/hooks/generate-preview', { ...body, character_ids: [1] }),
    );
  });

  it('leave plain posts alone: no key and no resend on a network error', async () => {
    setTokens('tok', 'ref');
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.post('/projects/', { name: 'x' })).rejects.toThrow('Failed to fetch');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
