import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end specs drive Debian's Chromium against the real server serving the built web app, on a fresh
 * embedded-mode data directory (SQLite, in-process jobs, local OpenID provider).
 */
const PORT = Number(process.env.E2E_PORT ?? 4317);
const BASE_URL = `http://localhost:${PORT}`;
// The fake providers listen on four ports from here: the images API, ElevenLabs, fal's CDN, fal's queue.
// E2E_FAKES_PORT moves them when PORT + 10 is another run's (two helpers' ports ten apart on one machine).
const FAKES = Number(process.env.E2E_FAKES_PORT ?? PORT + 10);
/** Where a spec reads the fake providers' request log (support/fake-providers.ts). */
export const FAKE_PROVIDERS_ORIGIN = `http://127.0.0.1:${FAKES}`;
const DATA_DIR = (process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'hookreel-e2e-')));
export const ADMIN_EMAIL = 'admin@hookreel.test';
/**
 * The one local origin the server may deliver webhooks to (test-only, decision 132): the settings e2e test runs a
 * receiver here. Any other private or plain-http address is still refused, which that test checks too.
 */
export const WEBHOOK_RECEIVER_PORT = Number(process.env.E2E_WEBHOOK_PORT ?? PORT + 1);
export const WEBHOOK_RECEIVER_ORIGIN = `http://127.0.0.1:${WEBHOOK_RECEIVER_PORT}`;

export default defineConfig({
  testDir: './specs',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // One spec file at a time: on 2 cores two browsers and their renders took longer than one (decision 143);
  // E2E_WORKERS=2 on a bigger machine. A file's tests always run in order on one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../.tmp/playwright.json' }]],
  use: {
    baseURL: BASE_URL,
    // A failed test keeps its trace: every action with the page's DOM before and after it, the network and the
    // console. Not the screencast: streaming frames kept Chromium's browser and GPU processes busy for every test,
    // passed or not, about a tenth of the run's time on 2 cores (decision 154).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  outputDir: '../.tmp/e2e-results',
  webServer: [
    {
      command: 'node --import tsx support/fake-providers.ts',
      port: FAKES,
      timeout: 60_000,
      reuseExistingServer: false,
      env: { FAKE_PROVIDERS_PORT: String(FAKES) },
    },
    {
      command: 'node --import tsx ../apps/server/src/main.ts',
      url: `${BASE_URL}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        PUBLIC_URL: BASE_URL,
        ADMIN_EMAILS: ADMIN_EMAIL,
        // The buying specs buy with demo money; the server's own default is BILLING=off (decision 173).
        BILLING: 'demo',
        // One browser on this machine plays every user of the run from one address: the per-client limits on
        // sign-in mails and registrations are lifted here (the per-address ones still apply).
        SIGN_IN_MAIL_RATE_LIMIT: '10000',
        REGISTER_RATE_LIMIT: '10000',
        LOG_LEVEL: 'warn',
        ACCESS_TOKEN_TTL_SEC: process.env.E2E_ACCESS_TTL ?? '900',
        UNSAFE_WEBHOOK_TEST_ORIGINS: WEBHOOK_RECEIVER_ORIGIN,
        // Realistic goes to the local fakes (support/fake-providers.ts); Draft, the default, never calls them.
        OPENAI_BASE_URL: `http://127.0.0.1:${FAKES}/v1`,
        OPENAI_API_KEY: 'sk-e2e-fake',
        OPENAI_EDIT_MODEL: 'gpt-image-1',
        OPENAI_IMAGE_MODEL: 'gpt-image-1',
        ELEVENLABS_API_KEY: 'e2e-fake',
        ELEVENLABS_BASE_URL: `http://127.0.0.1:${FAKES + 1}`,
        FAL_KEY: 'e2e:fake',
        FAL_BASE_URL: `http://127.0.0.1:${FAKES + 3}`,
        FAL_STORAGE_URL: `http://127.0.0.1:${FAKES + 3}`,
        // The fake queue answers at once: poll it every 250-500 ms, not from 2 s as a real avatar model needs.
        FAL_POLL_INTERVAL_MS: '250',
        FAL_POLL_MAX_INTERVAL_MS: '500',
      },
    },
  ],
});
