import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`: the origin to allow (test-only) on the server under test. */
  origin: string;
  received: ReceivedWebhook[];
  /** Statuses to answer in order; once used up, 200. */
  answers: number[];
  close(): Promise<void>;
}

/** A local receiver of webhook POSTs that records every request and answers from a script of statuses. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.answers.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const receiver: WebhookReceiver = {
    origin: `http://127.0.0.1:${port}`,
    received: [],
    answers: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
