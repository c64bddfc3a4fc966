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
  /** Statuses to answer in order; once used up, `fallback`. */
  answers: number[];
  /** The status once `answers` is used up (200 unless a test makes the receiver fail for good). */
  fallback: number;
  /** While true, requests are received but not answered until release() (a slow receiver). */
  holding: boolean;
  /** Requests received and not yet answered. */
  readonly held: number;
  /** Answers every held request and stops holding. */
  release(): void;
  close(): Promise<void>;
}

/** A local receiver of webhook POSTs that records every request and answers from a script of statuses. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let port = 0;
  const waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = () =>
        res.writeHead(receiver.answers.shift() ?? receiver.fallback, { 'content-type': 'text/plain' }).end('ok');
      if (receiver.holding) waiting.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const receiver: WebhookReceiver = {
    origin: `http://127.0.0.1:${port}`,
    received: [],
    answers: [],
    fallback: 200,
    holding: false,
    get held() {
      return waiting.length;
    },
    release() {
      receiver.holding = false;
      for (const answer of waiting.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
