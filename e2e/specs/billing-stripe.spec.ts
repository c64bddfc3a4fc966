import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { type FakeStripe, startFakeStripe } from '../../apps/server/test/helpers/fake-stripe.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { balance } from '../support/credits.ts';

/**
 * BILLING=stripe end to end: a second server of our own, in Stripe mode, pointed at the local fake of the Stripe
 * API. Stripe's hosted pages (Checkout, Customer Portal) are outside our app: the browser's visit there is
 * answered with a stand-in page, and the fake plays what the customer does on them, sending Stripe's signed events
 * to our webhook, before the browser comes back to /credits as Stripe would send it.
 */
const SECRET_KEY = 'sk_test_e2e_fake';
const WEBHOOK_SECRET = 'whsec_e2e_fake';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let stripe: FakeStripe;
let server: ChildProcess;
let baseUrl: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  stripe = await startFakeStripe(SECRET_KEY);
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'hookreel-e2e-stripe-'));
  server = spawn('node', ['--import', 'tsx', path.resolve('../apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      BILLING: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      SIGN_IN_MAIL_RATE_LIMIT: '10000',
      REGISTER_RATE_LIMIT: '10000',
      LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
  });
  await expect
    .poll(async () => (await fetch(`${baseUrl}/api/health`).catch(() => null))?.status ?? 0, { timeout: 90_000 })
    .toBe(200);
  stripe.sendWebhooksTo(`${baseUrl}/api/billing/webhook`, WEBHOOK_SECRET);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await stripe?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Answers the browser's visit to a Stripe-hosted page with a stand-in, and returns the id in its URL. */
async function visitStripePage(page: Page, host: string, click: () => Promise<void>): Promise<string> {
  await page.route(`https://${host}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>Stripe (stand-in)</h1>' }),
  );
  await click();
  await page.waitForURL(`https://${host}/**`);
  return page.url().split('/').at(-1)!;
}

test('Stripe billing: subscribe through Checkout, then upgrade, downgrade and cancel in the Customer Portal; /credits follows', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('stripe');
  // The sign-in mail lands in this server's outbox.
  const sharedDataDir = process.env.E2E_DATA_DIR;
  process.env.E2E_DATA_DIR = dataDir;
  try {
    await signIn(page, email, { at: `${baseUrl}/credits` });
  } finally {
    process.env.E2E_DATA_DIR = sharedDataDir;
  }
  await expect(balance(page)).toHaveText('13.70');

  // Subscribe to Starter (monthly) on Stripe Checkout.
  const session = await visitStripePage(page, 'checkout.stripe.test', () =>
    page.getByTestId('plan-starter').getByRole('button', { name: 'Subscribe' }).click(),
  );
  const { subscription } = await stripe.payCheckout(session);
  await page.goto(`${baseUrl}/credits?checkout=success`);
  await expect(page.getByText(/Your plan: Starter \(monthly\)/)).toBeVisible();
  await expect(balance(page)).toHaveText('28.70');
  await expect(page.getByTestId('plan-starter').getByRole('button', { name: 'Current plan' })).toBeDisabled();

  // Upgrade to Growth in the portal, halfway through the month: charged and credited at once, prorated (12.50).
  const priceFor = (key: string) => [...stripe.prices.values()].find((p) => p.lookup_key === key)!.id;
  await visitStripePage(page, 'billing.stripe.test', () =>
    page.getByTestId('plan-growth').getByRole('button', { name: 'Change plan' }).click(),
  );
  await stripe.portalSwitch(subscription!, priceFor('hookreel_growth_month'), 0.5);
  await page.goto(`${baseUrl}/credits?portal=return`);
  await expect(
    page.getByText('Changes made in the billing portal show here as soon as Stripe confirms them.'),
  ).toBeVisible();
  await expect(page.getByText(/Your plan: Growth \(monthly\)/)).toBeVisible();
  await expect(balance(page)).toHaveText('41.20');
  await expect(page.getByTestId('plan-growth').getByRole('button', { name: 'Current plan' })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('credits-after-upgrade.png'), fullPage: true });

  // Downgrade back to Starter: it waits for the renewal, which then pays a Starter month.
  await visitStripePage(page, 'billing.stripe.test', () =>
    page.getByTestId('plan-starter').getByRole('button', { name: 'Change plan' }).click(),
  );
  await stripe.portalSwitch(subscription!, priceFor('hookreel_starter_month'), 0.8);
  await page.goto(`${baseUrl}/credits?portal=return`);
  await expect(page.getByText(/Your plan: Growth \(monthly\)/)).toBeVisible();
  await stripe.renew(subscription!);
  await page.reload();
  await expect(page.getByText(/Your plan: Starter \(monthly\)/)).toBeVisible();

  // Cancel in the portal: the plan runs to the end of the period, then ends.
  await visitStripePage(page, 'billing.stripe.test', () =>
    page.getByRole('button', { name: 'Manage billing' }).click(),
  );
  await stripe.portalCancel(subscription!);
  await page.goto(`${baseUrl}/credits?portal=return`);
  await expect(page.getByText(/Your plan: Starter \(monthly, ends with this period\)/)).toBeVisible();
  await stripe.renew(subscription!);
  await page.reload();
  await expect(page.getByText(/Your plan:/)).toBeHidden();
  await expect(page.getByTestId('plan-growth').getByRole('button', { name: 'Subscribe' })).toBeEnabled();

  // The history lists each purchase and the expiry at the downgrade's renewal.
  await page.goto(`${baseUrl}/credits/history`);
  const rows = page.getByTestId('ledger-row');
  await expect(rows.filter({ hasText: 'Growth plan upgrade (prorated)' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Starter plan renewal' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Rollover above 5 credits' })).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('history-after-plan-changes.png'), fullPage: true });
  expect(stripe.deliveries.every((d) => d.status === 200)).toBe(true);
});
