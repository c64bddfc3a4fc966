import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';

describe('the web app: prerendered public screens, the app shell for the rest', () => {
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    // A stand-in for apps/web/dist as `npm run build` leaves it (decision 114).
    dist = await mkdtemp(path.join(tmpdir(), 'hookreel-web-dist-'));
    await mkdir(path.join(dist, 'prerendered'));
    await writeFile(path.join(dist, 'index.html'), '<div id="root"></div><!-- shell -->');
    await writeFile(path.join(dist, 'prerendered', 'landing.html'), '<div id="root">landing</div>');
    await writeFile(path.join(dist, 'prerendered', 'register.html'), '<div id="root">register</div>');
    await writeFile(
      path.join(dist, 'prerendered', 'routes.json'),
      // 'gone' has no file and '../index' is not a page name: both are ignored.
      JSON.stringify({
        '/': 'register',
        '/register': 'register',
        '/landing': 'landing',
        '/login': 'gone',
        '/x': '../index',
      }),
    );
    server = await startTestServer({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dist, { recursive: true, force: true });
  });

  const page = async (p: string) => {
    const res = await fetch(`${server.url}${p}`);
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  };

  it('answers the public screens with their prerendered page', async () => {
    expect(await page('/landing')).toMatchObject({ status: 200, body: '<div id="root">landing</div>' });
    expect((await page('/landing?ref=ad')).body).toBe('<div id="root">landing</div>');
    expect((await page('/')).body).toBe('<div id="root">register</div>');
    expect((await page('/register')).body).toBe('<div id="root">register</div>');
    expect((await page('/landing')).type).toMatch(/^text\/html/);
  });

  it('answers every other screen, and a page without its file, with the app shell', async () => {
    for (const p of ['/login', '/projects', '/jobs/12', '/x']) {
      expect(await page(p), p).toMatchObject({ status: 200, body: '<div id="root"></div><!-- shell -->' });
    }
  });
});
