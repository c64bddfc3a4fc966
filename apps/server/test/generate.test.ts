import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VALIDATION } from '@hookreel/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { pngImage, svgWithScript } from './helpers/images.ts';

/** A stand-in for someone else's web server, on this machine (so only a test allowance lets the guard reach it). */
function imageHost(routes: Record<string, (res: ServerResponse) => void>): Promise<Server> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end('not here');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const originOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

describe('POST /api/generate/remote-image: pasted image addresses through the SSRF guard', () => {
  let server: TestServer;
  let user: TestUser;
  let outside: Server;
  let inside: Server;
  let png: Buffer;

  beforeAll(async () => {
    png = await pngImage(40, 30);
    // An "inside" service the user must never reach, even through a redirect.
    inside = await imageHost({ '/secret.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png) });
    outside = await imageHost({
      '/product.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
      '/to-inside': (res) => res.writeHead(302, { location: `${originOf(inside)}/secret.png` }).end(),
      '/to-metadata': (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/logo.svg': (res) => res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svgWithScript()),
      '/huge.png': (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.concat([png, Buffer.alloc(11 * 1024 * 1024)]));
      },
    });
    server = await startTestServer();
    user = await registerUser(server);
  });
  beforeEach(() => {
    // Only the outside host is treated as public; everything else keeps the guard's real rules.
    server.ctx.remoteImageFetch = { testOnlyAllowedOrigins: [originOf(outside)] };
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([outside, inside].map((s) => new Promise((r) => s?.close(r))));
  });

  const fetchImage = (url: unknown, headers: Record<string, string> = user.authHeader) =>
    fetch(`${server.url}/api/generate/remote-image`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });

  it('stores a public image under the user and serves it from our origin', async () => {
    const res = await fetchImage(`${originOf(outside)}/product.png`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { file_path: string; width: number; height: number };
    expect(body).toMatchObject({ width: 40, height: 30 });
    expect(body.file_path).toMatch(new RegExp(`^users/${user.id}/remote-images/[0-9a-f-]+\\.png$`));
    const served = await fetch(`${server.url}/api/static/${body.file_path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('refuses loopback, metadata, private, mapped and non-http addresses with a reason', async () => {
    server.ctx.remoteImageFetch = undefined;
    for (const url of [
      `${originOf(outside)}/product.png`,
      'http://localhost/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.8/a.png',
      'http://192.168.1.1/a.png',
      'http://100.64.0.1/a.png',
      'http://[::1]/a.png',
      'http://[::ffff:127.0.0.1]/a.png',
      'http://[fd00::1]/a.png',
      'http://2130706433/a.png',
    ]) {
      const res = await fetchImage(url);
      expect(res.status, url).toBe(422);
      expect(((await res.json()) as { detail: string }).detail, url).toMatch(/address|public|allowed/i);
    }
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.png', 'gopher://example.com/']) {
      const res = await fetchImage(url);
      expect(res.status, url).toBe(422);
      expect(((await res.json()) as { detail: string }).detail, url).toMatch(/http and https/);
    }
  });

  it('re-checks every redirect: none leads inside or to the metadata service', async () => {
    for (const hop of ['/to-inside', '/to-metadata']) {
      const res = await fetchImage(`${originOf(outside)}${hop}`);
      expect(res.status, hop).toBe(422);
    }
  });

  it('takes only real PNG, JPEG or WEBP within the size cap', async () => {
    const svg = await fetchImage(`${originOf(outside)}/logo.svg`);
    expect(svg.status).toBe(415);
    expect(await svg.json()).toEqual({ detail: VALIDATION.imageRequired });
    const huge = await fetchImage(`${originOf(outside)}/huge.png`);
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ detail: VALIDATION.fileTooLarge });
    const missing = await fetchImage(`${originOf(outside)}/gone.png`);
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/HTTP 404/);
  });

  it('needs a signed-in user and a URL', async () => {
    expect((await fetchImage(`${originOf(outside)}/product.png`, {})).status).toBe(401);
    expect((await fetchImage('')).status).toBe(422);
    expect((await fetchImage(42)).status).toBe(422);
  });
});
