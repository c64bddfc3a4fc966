import { LIMITS, PURCHASE_REFUSALS } from '@hookreel/contracts';
import { SignJWT } from 'jose';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { startFakeStripe, stripeBillingEnv, type FakeStripe } from './helpers/fake-stripe.ts';
import { insertUser, postJson, TEST_PASSWORD, uniqueEmail, type InsertedUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue #33's lower findings, over HTTP: each test failed on the code before the fix (or, for register, pins the
 * bound that makes the accepted behaviour cheap; decision 176).
 */

const SECRET_KEY = 'sk_test_hookreel_abuse';
const WEBHOOK_SECRET = 'whsec_hookreel_abuse_secret';
const sdk = new Stripe(SECRET_KEY);
const REGISTER_LIMIT = 3;

describe.each(TEST_DIALECTS)('lower abuse findings are closed (%s)', (dialect) => {
  let server: TestServer;
  let stripeServer: TestServer;
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe(SECRET_KEY);
    [server, stripeServer] = await Promise.all([
      startTestServer({ dialect, env: { REGISTER_RATE_LIMIT: String(REGISTER_LIMIT) } }),
      startTestServer({
        dialect,
        env: stripeBillingEnv(stripe, SECRET_KEY, WEBHOOK_SECRET),
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), stripeServer?.close()]);
    await stripe?.close();
  });

  const me = (s: TestServer, token: string) =>
    fetch(`${s.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } });

  describe('access tokens', () => {
    const key = () => new TextEncoder().encode(server.ctx.config.jwtSecret);
    const token = (userId: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer('hookreel')
        .setAudience('hookreel-api')
        .setIssuedAt();

    it('a token without exp is refused', async () => {
      const u = await insertUser(server);
      expect((await me(server, u.token)).status).toBe(200);
      expect((await me(server, await token(u.id).sign(key()))).status).toBe(401);
    });

    it('a token older than its kind’s lifetime is refused, whatever its exp says', async () => {
      const u = await insertUser(server);
      const issuedLongAgo = await token(u.id)
        .setIssuedAt(Math.floor(Date.now() / 1000) - 2 * server.ctx.config.accessTokenTtlSec)
        .setExpirationTime('10m')
        .sign(key());
      expect((await me(server, issuedLongAgo)).status).toBe(401);
    });
  });

  it('the pasted-image fetch does not name the inside address a host resolves to', async () => {
    const u = await insertUser(server);
    server.ctx.remoteImageFetch = { resolver: async () => [{ address: '10.20.30.40', family: 4 }] };
    try {
      const res = await postJson(
        server,
        '/api/generate/remote-image',
        { url: 'https://images.example.test/a.png' },
        u.headers,
      );
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: string };
      expect(detail).toContain('only public addresses can be reached');
      expect(detail).not.toContain('10.20.30.40');
      expect(detail).not.toMatch(/private|loopback|link-local/i);
    } finally {
      server.ctx.remoteImageFetch = undefined;
    }
  });

  it(`one user can hold at most ${LIMITS.eventStreamsPerUser} job event streams, then 429`, async () => {
    const u = await insertUser(server);
    const other = await insertUser(server);
    const open = async (who: InsertedUser) => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/jobs/events`, { headers: who.headers, signal: controller.signal });
      return { res, close: () => controller.abort() };
    };
    const streams = [];
    for (let i = 0; i < LIMITS.eventStreamsPerUser; i++) streams.push(await open(u));
    expect(streams.every((s) => s.res.status === 200)).toBe(true);
    const refused = await open(u);
    expect(refused.res.status).toBe(429);
    expect(refused.res.headers.get('retry-after')).toBe('30');
    expect(((await refused.res.json()) as { detail: string }).detail).toMatch(/At most 10 live job updates/);
    // The cap is per user: someone else still gets a stream.
    const theirs = await open(other);
    expect(theirs.res.status).toBe(200);
    theirs.close();
    // A closed stream frees its place.
    streams.pop()!.close();
    const again = await waitFor(async () => {
      const s = await open(u);
      if (s.res.status === 200) return s;
      await s.res.body?.cancel();
      return null;
    }, 10_000);
    again.close();
    for (const s of streams) s.close();
  });

  it('register tells whether an address has an account only a few times per client (accepted, decision 176)', async () => {
    const taken = (await insertUser(server)).email;
    const probe = (email: string) => postJson(server, '/api/auth/register', { email, password: TEST_PASSWORD });
    const answers: number[] = [];
    for (let i = 0; i < REGISTER_LIMIT + 2; i++) {
      const res = await probe(i % 2 === 0 ? taken : uniqueEmail('probe'));
      answers.push(res.status);
      await res.body?.cancel();
    }
    // Within the budget the answer differs (409 for a taken address); after it, every address gets the same 429.
    expect(answers.slice(0, REGISTER_LIMIT)).toEqual([409, 201, 409]);
    expect(answers.slice(REGISTER_LIMIT)).toEqual([429, 429]);
  });

  describe('Stripe', () => {
    const deliver = async (evt: object, timestamp?: number) => {
      const payload = JSON.stringify(evt);
      const signature = sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
      const res = await fetch(`${stripeServer.url}/api/billing/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      return { status: res.status, json: (await res.json()) as { outcome?: string; detail?: string } };
    };
    const event = (created: number) => ({
      id: `evt_future_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'customer.created',
      data: { object: { id: 'cus_x', object: 'customer' } },
    });
    const now = () => Math.floor(Date.now() / 1000);

    it('an event dated in the future is refused (400); a small clock skew is allowed', async () => {
      const future = await deliver(event(now() + 3600));
      expect(future.status).toBe(400);
      expect(future.json.detail).toBe('The event is dated in the future');
      const signedAhead = await deliver(event(now()), now() + 3600);
      expect(signedAhead.status).toBe(400);
      expect((await deliver(event(now() + 60), now() + 60)).status).toBe(200);
    });

    it('with real money too, unverified accounts cannot check out and keys cannot open the portal', async () => {
      const unverified = await insertUser(stripeServer, { verified: false });
      const res = await postJson(stripeServer, '/api/billing/checkout', { bundle: 'bundle-5' }, unverified.headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toBe(PURCHASE_REFUSALS.unverified);
      const owner = await insertUser(stripeServer);
      const key = (await (await postJson(stripeServer, '/api/api-keys', { name: 'ci' }, owner.headers)).json()) as {
        key: string;
      };
      const portal = await postJson(stripeServer, '/api/billing/portal', {}, { authorization: `Bearer ${key.key}` });
      expect(portal.status).toBe(403);
      expect(((await portal.json()) as { detail: string }).detail).toBe(PURCHASE_REFUSALS.apiKey);
      expect(stripe.calls.filter((c) => c.path.includes('billing_portal')).length).toBe(0);
    });
  });
});
