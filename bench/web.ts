/**
 * `npm run bench:web`: how fast the web app shows. Builds the web app, serves it from the real server, and loads
 * each screen in Chromium with the CPU slowed 4x (a mid-range phone), reporting:
 *  - FCP and LCP (first and largest contentful paint, ms; LCP falls back to FCP when Chromium reports none);
 *  - first paint: the gzipped JS and CSS the page had requested by its largest paint (what it needed to show);
 *  - all JS: the gzipped JS it had loaded once idle, and how much of it is the route's own chunks (not the shell).
 * The public screens are prerendered (decision 114): they paint with the CSS alone and fetch the app once loaded.
 * A figure printer, never a timed test: the budget (60 KB first paint for the public screens) is reported, not
 * asserted.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { startServerProcess, type ServerProcess } from './lib/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const FIRST_PAINT_BUDGET_KB = 60;
const CPU_SLOWDOWN = 4;

const ROUTES: Array<{ path: string; signedIn: boolean; ready: string }> = [
  { path: '/landing', signedIn: false, ready: 'text=Start Free Trial' },
  { path: '/login', signedIn: false, ready: 'text=Continue with Google' },
  { path: '/register', signedIn: false, ready: 'text=Continue with Google' },
  { path: '/projects', signedIn: true, ready: 'text=Your Projects' },
  { path: '/jobs', signedIn: true, ready: 'text=Generated Videos' },
  { path: '/new-video', signedIn: true, ready: 'text=Create New Video' },
  { path: '/hook-packs', signedIn: true, ready: 'text=Create Hook Pack' },
  { path: '/credits', signedIn: true, ready: 'text=Most Popular' },
  { path: '/settings', signedIn: true, ready: 'text=Email Notifications' },
  { path: '/generate', signedIn: true, ready: 'text=Content Generator' },
];

interface Measured {
  path: string;
  fcp: number;
  lcp: number;
  /** Page errors and console errors while loading. */
  errors: number;
  firstPaintJs: number;
  firstPaintCss: number;
  allJs: number;
  routeJs: number;
}

const gzCache = new Map<string, number>();
async function gzipBytes(url: string): Promise<number> {
  const known = gzCache.get(url);
  if (known !== undefined) return known;
  const file = path.join(DIST, new URL(url).pathname);
  const size = gzipSync(await readFile(file), { level: 9 }).length;
  gzCache.set(url, size);
  return size;
}

/** The shell: the entry and what dist/index.html preloads with it (every screen of the app needs those). */
async function shellFiles(): Promise<Set<string>> {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  return new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!));
}

async function measure(
  browser: Browser,
  base: string,
  route: (typeof ROUTES)[number],
  tokens: object,
  shell: Set<string>,
) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // Browser code is passed as text: this package compiles for Node, without the DOM's types.
  if (route.signedIn) {
    await context.addInitScript(
      `for (const [k, v] of Object.entries(${JSON.stringify(tokens)})) localStorage.setItem(k, v);`,
    );
  }
  const page = await context.newPage();
  // A hydration mismatch or any other failure shows here: the page would repaint or break.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(
    `window.__lcp = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp = e.startTime; })` +
      `.observe({ type: 'largest-contentful-paint', buffered: true });`,
  );
  await page.goto(`${base}${route.path}`, { waitUntil: 'load' });
  await page.locator(route.ready).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2500); // past the prerendered pages' idle boot
  await page.waitForLoadState('networkidle');
  const timing = (await page.evaluate(
    `({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0, lcp: window.__lcp,` +
      ` resources: performance.getEntriesByType('resource').map((r) => ({ url: r.name, start: r.startTime })) })`,
  )) as { fcp: number; lcp: number; resources: Array<{ url: string; start: number }> };
  await context.close();

  const assets = timing.resources.filter((r) => new URL(r.url).pathname.startsWith('/assets/'));
  const sum = async (rs: typeof assets) =>
    (await Promise.all(rs.map((r) => gzipBytes(r.url)))).reduce((a, b) => a + b, 0);
  const js = assets.filter((r) => r.url.endsWith('.js'));
  const css = assets.filter((r) => r.url.endsWith('.css'));
  // A page whose largest paint Chromium did not report (text painted once, no later candidate) uses its first.
  const paintedAt = Math.max(timing.lcp, timing.fcp);
  const beforeLcp = (r: { start: number }) => r.start <= paintedAt;
  return {
    path: route.path,
    fcp: timing.fcp,
    lcp: paintedAt,
    errors: errors.length,
    firstPaintJs: await sum(js.filter(beforeLcp)),
    firstPaintCss: await sum(css.filter(beforeLcp)),
    allJs: await sum(js),
    routeJs: await sum(js.filter((r) => !shell.has(new URL(r.url).pathname))),
  } satisfies Measured;
}

const kb = (b: number) => (b / 1024).toFixed(1);

async function main() {
  execFileSync('bash', ['scripts/build-web.sh'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-web-'));
  let server: ServerProcess | null = null;
  let browser: Browser | null = null;
  try {
    server = await startServerProcess({
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      WEB_DIST: DIST,
    });
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `bench-web-${randomBytes(4).toString('hex')}@example.com`,
        password: 'bench web pass',
      }),
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
    const pair = (await res.json()) as { access_token: string; refresh_token: string };
    const tokens = { access_token: pair.access_token, refresh_token: pair.refresh_token };
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    const shell = await shellFiles();
    const rows: Measured[] = [];
    for (const route of ROUTES) rows.push(await measure(browser, server.url, route, tokens, shell));

    console.log(`\nbench:web — Chromium, 390x844, CPU slowed ${CPU_SLOWDOWN}x, cache off; sizes gzipped (level 9)\n`);
    console.log(
      'route'.padEnd(12) +
        'FCP ms'.padStart(8) +
        'LCP ms'.padStart(8) +
        'first paint JS+CSS KB'.padStart(23) +
        '(JS)'.padStart(8) +
        'all JS KB'.padStart(11) +
        'route chunks KB'.padStart(17) +
        'errors'.padStart(8),
    );
    for (const r of rows) {
      console.log(
        r.path.padEnd(12) +
          r.fcp.toFixed(0).padStart(8) +
          r.lcp.toFixed(0).padStart(8) +
          kb(r.firstPaintJs + r.firstPaintCss).padStart(23) +
          kb(r.firstPaintJs).padStart(8) +
          kb(r.allJs).padStart(11) +
          kb(r.routeJs).padStart(17) +
          String(r.errors).padStart(8),
      );
    }
    const publicRows = rows.filter((r) => ['/landing', '/login', '/register'].includes(r.path));
    const worst = Math.max(...publicRows.map((r) => r.firstPaintJs + r.firstPaintCss));
    console.log(
      `\nPublic screens' first paint: at most ${kb(worst)} KB JS+CSS (budget ${FIRST_PAINT_BUDGET_KB} KB): ` +
        (worst <= FIRST_PAINT_BUDGET_KB * 1024 ? 'within budget.' : 'OVER budget.'),
    );
  } finally {
    await browser?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
