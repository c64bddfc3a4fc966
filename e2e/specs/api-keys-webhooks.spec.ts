import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { WEBHOOK_RECEIVER_ORIGIN, WEBHOOK_RECEIVER_PORT } from '../playwright.config.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';

/**
 * /settings as a developer uses it: an API key is shown once, works as a Bearer token, and stops working when
 * revoked; a webhook endpoint gets a signing secret shown once, "Send test" delivers a signed event, and the
 * delivery log says so.
 *
 * The receiver is a plain-http server on this machine, which webhooks may never reach in real use. The server
 * under test allows exactly its origin through UNSAFE_WEBHOOK_TEST_ORIGINS (playwright.config.ts); this spec
 * first shows that every other private or plain-http address is still refused through the same form, so the
 * exception is as narrow as it claims.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let receiver: http.Server;

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(WEBHOOK_RECEIVER_PORT, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A receiver's own check of the signature, from the documented scheme (docs/api.md#webhooks). */
function signatureValid(secret: string, body: string, header: string): boolean {
  const fields = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  if (!fields.t || Math.abs(Date.now() / 1000 - Number(fields.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${fields.t}.${body}`).digest();
  const given = Buffer.from(fields.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test.describe('API keys and webhooks on /settings', () => {
  test('create a key, see it once, use it, revoke it', async ({ page, request }) => {
    await signIn(page, uniqueEmail('keys'), { at: '/settings' });
    await expect(page.getByText('No API keys yet.')).toBeVisible();

    await page.getByLabel('Key name').fill('Nightly export');
    // A double click makes one key, not two.
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api-keys'));
    await page.getByRole('button', { name: 'Create Key' }).dblclick();
    expect((await created).status()).toBe(201);
    const shown = page.getByLabel('New key "Nightly export"');
    await expect(shown).toHaveValue(/^hrk_[A-Za-z0-9_-]{43}$/);
    const key = await shown.inputValue();
    await expect(page.getByText('Copy this key now. For your security it will not be shown again.')).toBeVisible();
    await shown.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '../.tmp/settings-key-once.png' });
    await page.getByRole('button', { name: 'Done' }).click();

    const keys = page.getByRole('list', { name: 'API keys' });
    await expect(keys.getByText('Nightly export')).toBeVisible();
    await expect(keys.getByRole('listitem')).toHaveCount(1);
    await expect(keys).toContainText(`${key.slice(0, 12)}…`);
    await expect(keys).toContainText('Last used never');

    // The key works as a Bearer token, as its owner.
    const me = await request.get('/api/user/me', { headers: { authorization: `Bearer ${key}` } });
    expect(me.status()).toBe(200);

    // Shown once: after a reload the page holds no trace of it beyond the prefix.
    await page.reload();
    await expect(keys.getByText('Nightly export')).toBeVisible();
    await expect(keys).not.toContainText('Last used never');
    expect(await page.content()).not.toContain(key);

    // Revoking asks first; Cancel keeps the key.
    await page.getByRole('button', { name: 'Revoke Nightly export' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke "Nightly export"?' });
    await expect(confirm).toContainText('stop working at once');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(keys.getByText('Nightly export')).toBeVisible();
    expect((await request.get('/api/user/me', { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200);
    await page.getByRole('button', { name: 'Revoke Nightly export' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByText('No API keys yet.')).toBeVisible();
    const after = await request.get('/api/user/me', { headers: { authorization: `Bearer ${key}` } });
    expect(after.status()).toBe(401);
  });

  test('register a webhook, send a test, see the delivery log', async ({ page }) => {
    await signIn(page, uniqueEmail('hooks'), { at: '/settings' });
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
    const url = page.getByLabel('Endpoint URL');
    const add = page.getByRole('button', { name: 'Add Endpoint' });

    // Everything but the one allowed local origin is refused, exactly as in real use.
    const otherLocal = `http://127.0.0.1:${WEBHOOK_RECEIVER_PORT + 1}/hook`;
    for (const [address, message] of [
      ['https://10.0.0.1/hook', 'This address points to a private or local network.'],
      ['https://169.254.169.254/latest/meta-data', 'This address points to a private or local network.'],
      ['https://127.0.0.1/hook', 'This address points to a private or local network.'],
      [otherLocal, 'Webhook endpoints must use https://'],
    ] as const) {
      await url.fill(address);
      await add.click();
      await expect(page.getByText(message, { exact: false }).first()).toBeVisible();
    }
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();

    await url.fill(`${WEBHOOK_RECEIVER_ORIGIN}/hookreel`);
    await add.click();
    const secretField = page.getByLabel(`Signing secret for ${WEBHOOK_RECEIVER_ORIGIN}/hookreel`);
    await expect(secretField).toHaveValue(/^whsec_/);
    const secret = await secretField.inputValue();
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Send test' }).click();
    const log = page.getByRole('list', { name: 'Delivery log' });
    await expect(log.getByText('webhook.test')).toBeVisible();
    await expect(log.getByText('Delivered')).toBeVisible({ timeout: 20_000 });
    await expect(log).toContainText('1 attempt · HTTP 204');

    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(signatureValid(secret, delivery!.body, String(delivery!.headers['hookreel-signature']))).toBe(true);
    expect(
      signatureValid('whsec_not-the-secret', delivery!.body, String(delivery!.headers['hookreel-signature'])),
    ).toBe(false);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'webhook.test', id: expect.stringMatching(/^evt_/) });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: '../.tmp/settings-integrations.png', fullPage: true });

    // "Send test" is limited (5 a minute per user by default, issue #33): one test was sent above, four more
    // go through, and the next one is refused with the server's message in a toast.
    const sendTest = page.getByRole('button', { name: 'Send test' });
    for (let i = 0; i < 4; i++) {
      await sendTest.click();
      await expect(sendTest).toBeEnabled();
    }
    await sendTest.click();
    await expect(
      page.getByText('You can send at most 5 test events a minute. Wait a moment and try again.'),
    ).toBeVisible();
  });
});
