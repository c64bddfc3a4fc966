import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from './seeded-random.ts';

export type FaultMode =
  | { kind: 'up' }
  /** Every request answers 500 InternalError (the bucket is having an outage). */
  | { kind: 'down' }
  /**
   * A seeded share of requests answers 500 InternalError. Half of those never reach the bucket, the other half
   * do (the write happened) and only the answer is lost, as with a real S3 500. At most `maxConsecutive` in a
   * row for one method and path, so a client that retries that many times always gets through.
   */
  | { kind: 'flaky'; rate: number; seed: number; maxConsecutive: number };

export interface HttpFaultProxy {
  readonly url: string;
  mode: FaultMode;
  /** Since start: requests seen, answered with an injected 500, and of those, 500s sent after the bucket acted. */
  readonly stats: { requests: number; injected: number; injectedAfterBucket: number };
  close(): Promise<void>;
}

const internalError = (id: number) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>' +
  `<Message>We encountered an internal error. Please try again.</Message><RequestId>fault-${id}</RequestId></Error>`;

/** An HTTP proxy in front of an S3-compatible endpoint (s3rver) that injects S3-style 500 answers. */
export async function startHttpFaultProxy(target: string, mode: FaultMode = { kind: 'up' }): Promise<HttpFaultProxy> {
  const upstream = new URL(target);
  const stats = { requests: 0, injected: 0, injectedAfterBucket: 0 };
  const streak = new Map<string, number>();
  let random = seededRandom(0);
  let seededFor: FaultMode | null = null;
  const state = { mode };

  const fail = (res: http.ServerResponse, method: string) => {
    stats.injected++;
    const body = internalError(stats.injected);
    res.writeHead(500, {
      'content-type': 'application/xml',
      'x-amz-request-id': `fault-${stats.injected}`,
      'content-length': Buffer.byteLength(body),
    });
    res.end(method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer((req, res) => {
    stats.requests++;
    const m = state.mode;
    const key = `${req.method} ${req.url}`;
    let inject: 'no' | 'before' | 'after' = 'no';
    if (m.kind === 'down') inject = 'before';
    if (m.kind === 'flaky') {
      if (seededFor !== m) {
        random = seededRandom(m.seed);
        seededFor = m;
        streak.clear();
      }
      const roll = random();
      const allowed = (streak.get(key) ?? 0) < m.maxConsecutive;
      if (allowed && roll < m.rate) inject = roll < m.rate / 2 ? 'before' : 'after';
      streak.set(key, inject === 'no' ? 0 : (streak.get(key) ?? 0) + 1);
    }
    if (inject === 'before') {
      req.resume();
      req.on('end', () => fail(res, req.method ?? 'GET'));
      return;
    }
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        // The Host header stays the proxy's: it is part of the request's SigV4 signature.
        headers: req.headers,
      },
      (answer) => {
        if (inject === 'after') {
          stats.injectedAfterBucket++;
          answer.resume();
          answer.on('end', () => fail(res, req.method ?? 'GET'));
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: FaultMode) {
      state.mode = m;
    },
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
