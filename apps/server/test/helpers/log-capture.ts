import { Writable } from 'node:stream';

/**
 * Collects a test server's log lines (pass `stream` as startTestServer's logStream), so a test can read what an
 * operator's log would show.
 */
export function logCapture(): { stream: Writable; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}
