import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolver, SafeFetchError, safeFetch } from './safe-fetch.ts';

/** A local HTTP server that records what reached it and answers with `handler`. */
interface Local {
  hits: string[];
  port: number;
  origin: string;
  close(): Promise<void>;
}

async function local(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  host = '127.0.0.1',
  port = 0,
): Promise<Local> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const p = (server.address() as AddressInfo).port;
  return {
    hits,
    port: p,
    origin: `http://${host}:${p}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver that gives the next answer each time it is asked, and counts the questions. */
function sequenceResolver(...answers: string[][]): Resolver & { calls: number } {
  const r = Object.assign(
    async () => {
      const next = answers[Math.min(r.calls, answers.length - 1)]!;
      r.calls++;
      return next.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
    },
    { calls: 0 },
  );
  return r;
}

async function refusal(p: Promise<unknown>): Promise<SafeFetchError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}

describe('safeFetch', () => {
  let ok: Local;
  beforeAll(async () => {
    ok = await local((req, res) => {
      if (req.url === '/big') {
        res.end(Buffer.alloc(5000));
      } else if (req.url === '/stream') {
        // No content-length: the cap must hold while streaming.
        res.write(Buffer.alloc(3000));
        res.end(Buffer.alloc(3000));
      } else if (req.url === '/hang') {
        res.writeHead(200);
        res.write('x');
      } else if (req.url?.startsWith('/hop/')) {
        const n = Number(req.url.slice(5));
        res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/done' }).end();
      } else if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/to-rebinder') {
        res.writeHead(307, { location: 'http://rebind.example/x' }).end();
      } else if (req.url === '/echo' && req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => res.end(`${req.headers['x-sig'] ?? ''}|${body}`));
      } else {
        res.end('hello');
      }
    });
  });
  afterAll(() => ok.close());

  describe('refuses by default (no allow-list)', () => {
    it.each([
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://example.com/',
      'data:text/plain,hi',
      'javascript:alert(1)',
    ])('the scheme of %s', async (url) => {
      expect((await refusal(safeFetch(url))).code).toBe('forbidden_scheme');
    });

    it('a URL with credentials in it, and one that does not parse', async () => {
      expect((await refusal(safeFetch('http://user:pw@example.com/'))).code).toBe('invalid_url');
      expect((await refusal(safeFetch('not a url'))).code).toBe('invalid_url');
    });

    it('a local server by IP, by name and by every IPv6 or numeric spelling of loopback', async () => {
      const urls = [
        `http://127.0.0.1:${ok.port}/`,
        `http://localhost:${ok.port}/`,
        `http://[::1]:${ok.port}/`,
        `http://[::ffff:127.0.0.1]:${ok.port}/`,
        `http://[::ffff:7f00:1]:${ok.port}/`,
        `http://2130706433:${ok.port}/`,
        `http://0x7f.1:${ok.port}/`,
        `http://0.0.0.0:${ok.port}/`,
        `http://127.1:${ok.port}/`,
      ];
      for (const url of urls) {
        const err = await refusal(safeFetch(url));
        expect(err.code, url).toBe('forbidden_address');
        expect(err.message).toMatch(/only public addresses can be reached/);
      }
      expect(ok.hits).toEqual([]);
    });

    it('cloud metadata, private, CGNAT and link-local hosts, whatever name points at them', async () => {
      for (const address of [
        '169.254.169.254',
        'fd00:ec2::254',
        '10.0.0.8',
        '192.168.1.1',
        '172.20.0.1',
        '100.100.100.200',
        'fe80::1',
        'fc00::5',
        '64:ff9b::a9fe:a9fe',
      ]) {
        const err = await refusal(safeFetch('http://innocent.example/', { resolver: sequenceResolver([address]) }));
        expect(err.code, address).toBe('forbidden_address');
        expect(err.message, 'names no inside address (decision 176)').not.toContain(address);
      }
    });

    it('a host with one inside address among public ones', async () => {
      const err = await refusal(
        safeFetch('http://mixed.example/', { resolver: sequenceResolver(['93.184.215.14', '127.0.0.1']) }),
      );
      expect(err.code).toBe('forbidden_address');
    });

    it('a host that does not resolve', async () => {
      const failing: Resolver = () => Promise.reject(new Error('ENOTFOUND'));
      expect((await refusal(safeFetch('http://nowhere.invalid/', { resolver: failing }))).code).toBe('dns_failed');
    });
  });

  describe('DNS rebinding', () => {
    it('a resolver that answers public, then 127.0.0.1: asked once, and the local server never hears from it', async () => {
      const resolver = sequenceResolver(['93.184.215.14'], ['127.0.0.1']);
      // The checked public address is unreachable from here (or slow): a network error or the time cap, never the
      // local server that a second lookup would have pointed at.
      const err = await refusal(safeFetch(`http://rebind.example:${ok.port}/`, { resolver, timeoutMs: 1500 }));
      expect(['network', 'timeout']).toContain(err.code);
      expect(resolver.calls).toBe(1);
      expect(ok.hits).toEqual([]);
    });

    it('the connection goes to the address that was checked, not to a later answer', async () => {
      // Two servers on the same port at two loopback addresses; the host is allowed (test-only) so that the
      // connection is made at all, and the resolver changes its answer after the first question.
      const checked = await local((_req, res) => res.end('checked'), '127.0.0.1');
      const other = await local((_req, res) => res.end('other'), '127.0.0.2', checked.port);
      try {
        const resolver = sequenceResolver(['127.0.0.1'], ['127.0.0.2']);
        const res = await safeFetch(`http://rebind.example:${checked.port}/`, {
          resolver,
          testOnlyAllowedOrigins: [`http://rebind.example:${checked.port}`],
        });
        expect(res.body.toString()).toBe('checked');
        expect(res.address).toBe('127.0.0.1');
        expect(resolver.calls).toBe(1);
        expect(other.hits).toEqual([]);
      } finally {
        await checked.close();
        await other.close();
      }
    });

    it('a redirect to a host that now resolves inside is checked again and refused', async () => {
      const resolver = sequenceResolver(['127.0.0.1']);
      const err = await refusal(
        safeFetch(`${ok.origin}/to-rebinder`, { resolver, testOnlyAllowedOrigins: [ok.origin] }),
      );
      expect(err.code).toBe('forbidden_address');
      expect(err.url).toBe('http://rebind.example/x');
    });
  });

  describe('with a test-only allow-list for the local fake', () => {
    const opts = () => ({ testOnlyAllowedOrigins: [ok.origin] });

    it('fetches the allowed origin, and only that exact origin', async () => {
      const res = await safeFetch(`${ok.origin}/`, opts());
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('hello');
      const otherPort = `http://127.0.0.1:${ok.port + 1}/`;
      expect((await refusal(safeFetch(otherPort, opts()))).code).toBe('forbidden_address');
    });

    it('re-checks every redirect: one to the metadata address is refused', async () => {
      const err = await refusal(safeFetch(`${ok.origin}/to-metadata`, opts()));
      expect(err.code).toBe('forbidden_address');
      expect(err.message).toContain('is not a public address');
    });

    it('follows up to 3 redirects and refuses a fourth', async () => {
      const three = await safeFetch(`${ok.origin}/hop/2`, opts());
      expect(three.body.toString()).toBe('hello');
      expect(three.url).toBe(`${ok.origin}/done`);
      expect((await refusal(safeFetch(`${ok.origin}/hop/3`, opts()))).code).toBe('too_many_redirects');
    });

    it('returns a redirect as it is in manual mode', async () => {
      const res = await safeFetch(`${ok.origin}/hop/0`, { ...opts(), redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/done');
    });

    it('caps the size by the declared length and while streaming', async () => {
      expect((await refusal(safeFetch(`${ok.origin}/big`, { ...opts(), maxBytes: 4000 }))).code).toBe('too_large');
      expect((await refusal(safeFetch(`${ok.origin}/stream`, { ...opts(), maxBytes: 4000 }))).code).toBe('too_large');
      expect((await safeFetch(`${ok.origin}/stream`, { ...opts(), maxBytes: 6000 })).body.length).toBe(6000);
    });

    it('caps the time of a server that never finishes', async () => {
      const started = Date.now();
      const err = await refusal(safeFetch(`${ok.origin}/hang`, { ...opts(), timeoutMs: 300 }));
      expect(err.code).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('posts a body with its headers', async () => {
      const res = await safeFetch(`${ok.origin}/echo`, {
        ...opts(),
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sig': 't=1,v1=ab' },
        body: '{"a":1}',
      });
      expect(res.body.toString()).toBe('t=1,v1=ab|{"a":1}');
    });
  });
});
