import net from 'node:net';

/** A request written byte for byte, so it can carry what fetch refuses to send (duplicate or broken headers). */
export interface RawRequest {
  method: string;
  /** The request target exactly as it goes on the wire (already escaped, or deliberately not). */
  target: string;
  /** Header lines in order; duplicates are allowed. */
  headers?: Array<[string, string]>;
  body?: Buffer | string;
  /** Adds `content-length` for the body unless a header sets it already (default true). */
  autoLength?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** True when the server closed the connection before answering at all. */
  noAnswer: boolean;
}

/**
 * Sends one request over a fresh connection and reads the answer. The connection is kept open until the
 * answer is complete and then closed by us: a server that answers early (413) reads and discards the rest of
 * the body on a keep-alive connection, whereas closing with unread data would reset the connection and could
 * lose the answer in flight. Event streams are cut off once their headers arrive.
 */
export function rawRequest(base: string, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `host: ${hostname}:${port}`];
  const headers = req.headers ?? [];
  for (const [k, v] of headers) lines.push(`${k}: ${v}`);
  const hasLength = headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k));
  if (body && req.autoLength !== false && !hasLength) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

  return new Promise((resolve, reject) => {
    let received: Buffer = Buffer.alloc(0);
    let done = false;
    const socket = net.connect(Number(port), hostname);
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponse(received));
    };
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${req.method} ${req.target.slice(0, 120)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      received = skipInterim(received);
      if (isComplete(received)) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    // EPIPE/ECONNRESET while we were still writing a body the server already refused: keep what it said.
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(head);
      if (body) writeInPieces(socket, body);
    });
  });
}

/** Drops `100 Continue` and other 1xx blocks in front of the real answer. */
function skipInterim(data: Buffer): Buffer {
  while (/^HTTP\/1\.[01] 1\d\d/.test(data.subarray(0, 16).toString('latin1'))) {
    const end = data.indexOf('\r\n\r\n');
    if (end < 0) break;
    data = data.subarray(end + 4);
  }
  return data;
}

/** Whether `data` holds a whole response: by Content-Length, the last chunk, or no body by definition. */
function isComplete(data: Buffer): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = data.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  if (/\r\ncontent-type:\s*text\/event-stream/i.test(head)) return true;
  if (status === 204 || status === 304) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return data.length - (end + 4) >= Number(length[1]);
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
    const tail = data.subarray(Math.max(end + 4, data.length - 7)).toString('latin1');
    return tail.endsWith('0\r\n\r\n') && (data.length - (end + 4) === 5 || tail.endsWith('\r\n0\r\n\r\n'));
  }
  return false;
}

/**
 * Writes a body in slices, yielding to the event loop between them: an early answer (413) is then read before
 * the next write can fail on the closed connection, and once it is read the rest of the upload is dropped.
 */
function writeInPieces(socket: net.Socket, body: Buffer): void {
  let offset = 0;
  const step = 64 * 1024;
  const next = () => {
    if (offset >= body.length || socket.destroyed) return;
    const slice = body.subarray(offset, offset + step);
    offset += slice.length;
    if (socket.write(slice)) setImmediate(next);
    else socket.once('drain', next);
  };
  next();
}

function parseResponse(raw: Buffer): RawResponse {
  raw = skipInterim(raw);
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: Buffer.alloc(0), noAnswer: true };
  const [statusLine = '', ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status, headers, body, noAnswer: status === 0 };
}

/** Decodes a chunked body as far as it was received. */
function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let p = 0;
  while (p < data.length) {
    const eol = data.indexOf('\r\n', p);
    if (eol < 0) break;
    const len = parseInt(data.subarray(p, eol).toString('latin1'), 16);
    if (!Number.isFinite(len) || len === 0) break;
    out.push(data.subarray(eol + 2, eol + 2 + len));
    p = eol + 2 + len + 2;
  }
  return Buffer.concat(out);
}
