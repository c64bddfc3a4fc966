import { Job } from '@hookreel/contracts';
import type { TestServer } from './app.ts';
import type { TestUser } from './factories.ts';

/**
 * Requests to a server's /api as a user, for fault tests: each request fails after `hangMs` instead of hanging,
 * since a request that never answers is what those tests must rule out. `target` is read at call time, so the
 * client can be made before beforeAll has started the server and registered the user.
 */
export function userApi(
  target: () => { server: Pick<TestServer, 'url'>; user: Pick<TestUser, 'authHeader'> },
  hangMs: number,
) {
  const api = (p: string, init: RequestInit = {}) => {
    const { server, user } = target();
    return fetch(`${server.url}/api${p}`, {
      ...init,
      headers: { ...user.authHeader, ...init.headers },
      signal: AbortSignal.timeout(hangMs),
    });
  };
  /** The job as the API shows it (parsed with the contract), or null unless it answers 200. */
  const getJob = async (id: number) => {
    const res = await api(`/jobs/${id}`);
    return res.status === 200 ? Job.parse(await res.json()) : null;
  };
  return { api, getJob };
}

/**
 * `method path` on the server's /api with `headers` (a user's authorization): a FormData body goes as it is, any
 * other body as JSON.
 */
export function requestApi(
  server: Pick<TestServer, 'url'>,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const raw = body === undefined || body instanceof FormData;
  return fetch(`${server.url}/api${path}`, {
    method,
    headers: raw ? headers : { ...headers, 'content-type': 'application/json' },
    body: raw ? (body as FormData | undefined) : JSON.stringify(body),
  });
}
