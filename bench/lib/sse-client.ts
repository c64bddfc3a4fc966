/**
 * A minimal EventSource for the bench: one socket per stream (no agent pooling), and for every `event: job`
 * the time it arrived, keyed by job id.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface SseStream {
  /** Job id -> performance.now() when its first event arrived on this stream. */
  readonly arrivals: Map<number, number>;
  readonly closed: boolean;
  close(): void;
}

/** Resolves once the stream's first bytes arrived: the server has subscribed it to the user's job events. */
export function openSse(url: string, token: string, timeoutMs = 60_000): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<number, number>();
    let closed = false;
    let opened = false;
    const req = request(url, {
      agent: false,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`SSE stream not open within ${timeoutMs} ms`));
    }, timeoutMs);
    const stream: SseStream = {
      arrivals,
      get closed() {
        return closed;
      },
      close: () => req.destroy(),
    };
    req.on('error', (err) => {
      closed = true;
      clearTimeout(timer);
      if (!opened) reject(err);
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        res.resume();
        reject(new Error(`SSE stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        if (!opened) {
          opened = true;
          clearTimeout(timer);
          resolve(stream);
        }
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          if (!lines.includes('event: job')) continue;
          const data = lines.find((l) => l.startsWith('data: '));
          if (!data) continue;
          const id = (JSON.parse(data.slice(6)) as { job?: { id?: unknown } }).job?.id;
          if (typeof id === 'number' && !arrivals.has(id)) arrivals.set(id, at);
        }
      });
      res.on('close', () => {
        closed = true;
      });
    });
    req.end();
  });
}
