/**
 * A local HTTP server for adapter tests (node:http on 127.0.0.1, port 0): records every request and answers with
 * whatever the test's handler returns. Not used outside tests.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path with query string. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** ms since epoch when the request arrived. */
  at: number;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: Buffer | string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeServer(
  handler: (req: RecordedRequest, server: { url: string }) => FakeReply | Promise<FakeReply>,
  /** A fixed port (e2e, where the app is started with the fakes' addresses); any free port when absent. */
  options: { port?: number } = {},
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const ref = { url: '' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        at: Date.now(),
        json: () => JSON.parse(body.toString('utf8')),
      };
      requests.push(rec);
      void (async () => {
        let reply: FakeReply;
        try {
          reply = await handler(rec, ref);
        } catch (e) {
          reply = { status: 599, body: `fake server handler threw: ${(e as Error).message}` };
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        const headers: Record<string, string> = { ...reply.headers };
        let out: Buffer | string = reply.body ?? '';
        if (reply.json !== undefined) {
          out = JSON.stringify(reply.json);
          headers['content-type'] ??= 'application/json';
        }
        res.writeHead(reply.status ?? 200, headers);
        res.end(out);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  ref.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: ref.url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the promise to reject');
}
