import { PLANS, ROLLOVER_CAP } from '@hookreel/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerBalances, reserveCredits, toHundredths } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { startFakeStripe, stripeBillingEnv, stripeEvent, type FakeStripe } from './helpers/fake-stripe.ts';
import { insertUser, type InsertedUser } from './helpers/factories.ts';

const SECRET_KEY = 'sk_test_hookreel_fake';
const WEBHOOK_SECRET = 'whsec_hookreel_test_secret';
const sdk = new Stripe(SECRET_KEY);

let seq = 0;
/** A Stripe event around `object`, with ids of its own so a test can deliver the same event twice. */
const event = (type: string, object: Record<string, unknown>, id = `evt_test_${++seq}`) =>
  stripeEvent(type, object, id);

for (const dialect of TEST_DIALECTS) {
  describe(`Stripe billing against a local fake of the API (${dialect})`, () => {
    let server: TestServer;
    let stripe: FakeStripe;
    beforeAll(async () => {
      stripe = await startFakeStripe(SECRET_KEY);
      server = await startTestServer({
        dialect,
        env: stripeBillingEnv(stripe, SECRET_KEY, WEBHOOK_SECRET),
      });
      stripe.sendWebhooksTo(`${server.url}/api/billing/webhook`, WEBHOOK_SECRET);
    });
    afterAll(async () => {
      await server?.close();
      await stripe?.close();
    });

    const api = async (user: InsertedUser, method: string, p: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api${p}`, {
        method,
        headers: { ...user.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test asserts the fields it reads
      return { status: res.status, json: (await res.json()) as any };
    };
    /** Posts an event to the webhook, signed with the SDK's own test-header helper unless told otherwise. */
    const deliver = async (evt: object, opts: { signature?: string | null; tamper?: (raw: string) => string } = {}) => {
      const payload = JSON.stringify(evt);
      const signature =
        opts.signature === undefined
          ? sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })
          : opts.signature;
      const res = await fetch(`${server.url}/api/billing/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
        body: opts.tamper ? opts.tamper(payload) : payload,
      });
      return { status: res.status, json: (await res.json()) as { outcome?: string; detail?: string } };
    };
    const credits = async (u: InsertedUser) => ((await api(u, 'GET', '/user/me')).json as { credits: number }).credits;
    const customerOf = async (u: InsertedUser) =>
      (
        await server.ctx.db.kysely
          .selectFrom('billing_customers')
          .select('customer_id')
          .where('user_id', '=', u.id)
          .executeTakeFirstOrThrow()
      ).customer_id;

    const invoice = (u: InsertedUser, customer: string, sub: string, plan: string, reason: string) => ({
      id: `in_test_${++seq}`,
      object: 'invoice',
      customer,
      billing_reason: reason,
      status: 'paid',
      period_end: Math.floor(Date.now() / 1000),
      lines: { object: 'list', data: [{ period: { start: 1, end: 1_900_000_000 } }] },
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: sub,
          metadata: { user_id: String(u.id), kind: 'plan', plan, interval: 'month' },
        },
      },
    });

    it('creates a Checkout Session for a plan at the price on /credits, and for a bundle', async () => {
      const u = await insertUser(server);
      const res = await api(u, 'POST', '/billing/checkout', { plan: 'growth', interval: 'year' });
      expect(res.status).toBe(200);
      expect(res.json.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test/);
      const customer = stripe.calls.findLast((c) => c.path === '/v1/customers');
      const session = stripe.calls.at(-1);
      expect(customer).toMatchObject({ path: '/v1/customers', authorization: `Bearer ${SECRET_KEY}` });
      expect(customer!.params).toMatchObject({ email: u.email, metadata: { user_id: String(u.id) } });
      expect(session!.path).toBe('/v1/checkout/sessions');
      const growth = PLANS.find((p) => p.id === 'growth')!;
      expect(session!.params).toMatchObject({
        mode: 'subscription',
        client_reference_id: String(u.id),
        success_url: `${server.url}/credits?checkout=success`,
        cancel_url: `${server.url}/credits?checkout=cancelled`,
        line_items: [{ quantity: '1', price: expect.stringMatching(/^price_/) }],
        metadata: { plan: 'growth', interval: 'year', user_id: String(u.id) },
        subscription_data: { metadata: { plan: 'growth', interval: 'year' } },
      });
      // A catalogue price, found again by its lookup key, at the price /credits shows.
      const price = stripe.prices.get((session!.params.line_items as Array<{ price: string }>)[0]!.price)!;
      expect(price).toMatchObject({
        unit_amount: growth.yearlyPrice * 100,
        currency: 'usd',
        recurring: { interval: 'year' },
        lookup_key: 'hookreel_growth_year',
      });

      const bundle = await api(u, 'POST', '/billing/checkout', { bundle: 'bundle-20' });
      expect(bundle.status).toBe(200);
      const bundleSession = stripe.calls.at(-1)!;
      // The customer is made once per user.
      expect(
        stripe.calls.filter(
          (c) => c.path === '/v1/customers' && (c.params.metadata as { user_id: string }).user_id === String(u.id),
        ),
      ).toHaveLength(1);
      expect(bundleSession.params).toMatchObject({
        mode: 'payment',
        line_items: [{ price_data: { unit_amount: '25900' } }],
        metadata: { kind: 'bundle', bundle: 'bundle-20', credits: '20' },
      });
      expect(await credits(u)).toBe(0); // nothing is granted until Stripe says it is paid

      const portal = await api(u, 'POST', '/billing/portal');
      expect(portal.json.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_test/);
      expect(stripe.calls.at(-1)!.params).toMatchObject({
        customer: await customerOf(u),
        configuration: stripe.portalConfigurations.at(-1)!.id,
        return_url: `${server.url}/credits?portal=return`,
      });

      // One failure: the SDK retries once with the same Idempotency-Key, so Stripe makes one session.
      stripe.failNext(1);
      const before = stripe.calls.length;
      expect((await api(u, 'POST', '/billing/checkout', { bundle: 'bundle-5' })).status).toBe(200);
      const tries = stripe.calls.slice(before);
      expect(tries).toHaveLength(2);
      expect(tries[0]!.idempotencyKey).toBeTruthy();
      expect(tries[1]!.idempotencyKey).toBe(tries[0]!.idempotencyKey);
      // Still failing after the retry: a clear 502, nothing granted.
      stripe.failNext(2);
      const down = await api(u, 'POST', '/billing/checkout', { bundle: 'bundle-5' });
      expect(down.status).toBe(502);
      expect(down.json.detail).toBe('The payment provider cannot be reached. Please try again later.');
      expect(await credits(u)).toBe(0);
    });

    it('grants a bundle once per event id; unsigned, tampered and wrongly signed events change nothing', async () => {
      const u = await insertUser(server);
      await api(u, 'POST', '/billing/checkout', { bundle: 'bundle-5' });
      const customer = await customerOf(u);
      const completed = event('checkout.session.completed', {
        id: 'cs_test_bundle',
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        customer,
        metadata: { user_id: String(u.id), kind: 'bundle', bundle: 'bundle-5', credits: '5' },
      });
      expect(await deliver(completed, { signature: null })).toMatchObject({ status: 400 });
      expect(
        await deliver(completed, { tamper: (raw) => raw.replace('"credits":"5"', '"credits":"500"') }),
      ).toMatchObject({
        status: 400,
        json: { detail: 'Invalid webhook signature' },
      });
      const otherSecret = sdk.webhooks.generateTestHeaderString({
        payload: JSON.stringify(completed),
        secret: 'whsec_other',
      });
      expect((await deliver(completed, { signature: otherSecret })).status).toBe(400);
      expect(await credits(u)).toBe(0);

      expect(await deliver(completed)).toEqual({ status: 200, json: { received: true, outcome: 'applied' } });
      expect(await deliver(completed)).toEqual({ status: 200, json: { received: true, outcome: 'duplicate' } });
      expect(await credits(u)).toBe(5);
      // An event we do not act on is acknowledged and ignored.
      expect((await deliver(event('charge.refunded', { id: 'ch_1' }))).json.outcome).toBe('ignored');
    });

    it('grants a plan on invoice.paid whatever the order of events, caps rollover on renewal, stops after cancel', async () => {
      const u = await insertUser(server);
      await api(u, 'POST', '/billing/checkout', { plan: 'starter', interval: 'month' });
      const customer = await customerOf(u);
      const sub = `sub_test_${++seq}`;
      // Reordered: the first invoice arrives before the session's completion.
      const first = event('invoice.paid', invoice(u, customer, sub, 'starter', 'subscription_create'));
      expect((await deliver(first)).json.outcome).toBe('applied');
      const completed = event('checkout.session.completed', {
        id: 'cs_test_sub',
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        customer,
        subscription: sub,
        metadata: { user_id: String(u.id), kind: 'plan', plan: 'starter', interval: 'month' },
      });
      expect((await deliver(completed)).json.outcome).toBe('applied');
      expect((await deliver(first)).json.outcome).toBe('duplicate');
      expect(await credits(u)).toBe(15);
      expect((await api(u, 'GET', '/billing/subscription')).json).toMatchObject({
        mode: 'stripe',
        portal: true,
        subscription: { plan: 'starter', interval: 'month', status: 'active', cancel_at_period_end: false },
      });

      // Spend 3: 12 of the month's 15 are left; the renewal keeps 5 (Starter's rollover) and adds 15.
      await server.ctx.db.kysely
        .transaction()
        .execute((trx) => reserveCredits(trx, u.id, toHundredths(3), 't', 'short'));
      const renewal = event('invoice.paid', invoice(u, customer, sub, 'starter', 'subscription_cycle'));
      expect((await deliver(renewal)).json.outcome).toBe('applied');
      expect(await credits(u)).toBe(ROLLOVER_CAP.starter! + 15);
      const ledger = (await api(u, 'GET', '/credits/ledger')).json.entries.map(
        (e: { kind: string; change: number }) => [e.kind, e.change],
      );
      expect(ledger.slice(0, 2)).toEqual([
        ['purchase', 15],
        ['expire', -7],
      ]);

      // Cancelled in the portal: Stripe deletes the subscription; a late renewal invoice grants nothing.
      const deleted = event('customer.subscription.deleted', {
        id: sub,
        object: 'subscription',
        customer,
        status: 'canceled',
        cancel_at_period_end: false,
        metadata: { user_id: String(u.id), plan: 'starter', interval: 'month' },
        items: { object: 'list', data: [{ current_period_end: 1_900_000_000 }] },
      });
      expect((await deliver(deleted)).json.outcome).toBe('applied');
      expect((await api(u, 'GET', '/billing/subscription')).json.subscription.status).toBe('canceled');
      const late = event('invoice.paid', invoice(u, customer, sub, 'starter', 'subscription_cycle'));
      expect((await deliver(late)).json.outcome).toBe('applied');
      expect(await credits(u)).toBe(ROLLOVER_CAP.starter! + 15);
      const b = await ledgerBalances(server.ctx.db.kysely, u.id);
      expect(b.granted).toBe(b.available + b.held + b.consumed);
    });

    /** Checkout for a plan, paid on the fake's Checkout page: the subscription it started. */
    const subscribe = async (u: InsertedUser, plan: string, interval: string) => {
      const res = await api(u, 'POST', '/billing/checkout', { plan, interval });
      expect(res.status).toBe(200);
      const session = /\/c\/pay\/(cs_\w+)$/.exec(res.json.url as string)![1]!;
      return (await stripe.payCheckout(session)).subscription!;
    };
    const priceFor = (key: string) => [...stripe.prices.values()].find((p) => p.lookup_key === key)!.id;
    const subscription = async (u: InsertedUser) => (await api(u, 'GET', '/billing/subscription')).json.subscription;
    const ledgerRows = async (u: InsertedUser) =>
      (
        (await api(u, 'GET', '/credits/ledger')).json.entries as Array<{ kind: string; change: number; reason: string }>
      ).map((e) => [e.kind, e.change, e.reason]);

    it('plan changes in the Customer Portal: an upgrade is charged and credited at once, prorated; a downgrade starts at renewal; a cancel ends the plan at period end', async () => {
      const u = await insertUser(server);
      const sub = await subscribe(u, 'starter', 'month');
      expect(await credits(u)).toBe(15);
      expect(await subscription(u)).toMatchObject({ plan: 'starter', interval: 'month', status: 'active' });

      // The portal the user is sent to allows switching between the six catalogue prices; upgrades are invoiced
      // at once, downgrades and shorter intervals wait for the end of the period; cancelling waits too.
      const portal = await api(u, 'POST', '/billing/portal');
      expect(portal.status).toBe(200);
      const config = stripe.portalConfigurations.at(-1)!;
      expect(stripe.calls.at(-1)!.params.configuration).toBe(config.id);
      expect(config.features).toMatchObject({
        subscription_update: {
          enabled: 'true',
          default_allowed_updates: ['price'],
          proration_behavior: 'always_invoice',
          schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }, { type: 'shortening_interval' }] },
        },
        subscription_cancel: { enabled: 'true', mode: 'at_period_end' },
      });
      const offered = (
        config.features as { subscription_update: { products: Array<{ prices: string[] }> } }
      ).subscription_update.products.flatMap((p) => p.prices);
      expect(offered.sort()).toEqual(
        ['starter', 'growth', 'agency']
          .flatMap((p) => [priceFor(`hookreel_${p}_month`), priceFor(`hookreel_${p}_year`)])
          .sort(),
      );

      // Upgrade halfway through the month: Stripe charges half the difference; the credits follow the money:
      // −15/2 (unused Starter) + 40/2 (the rest of the month on Growth) = 12.50.
      await stripe.portalSwitch(sub, priceFor('hookreel_growth_month'), 0.5);
      expect(await subscription(u)).toMatchObject({ plan: 'growth', interval: 'month', status: 'active' });
      expect(await credits(u)).toBe(27.5);
      expect((await ledgerRows(u))[0]).toEqual(['purchase', 12.5, 'Growth plan upgrade (prorated)']);

      // Downgrade: nothing changes until the month is over (the user keeps what they paid for)…
      await stripe.portalSwitch(sub, priceFor('hookreel_starter_month'), 0.7);
      expect(await subscription(u)).toMatchObject({ plan: 'growth', interval: 'month' });
      expect(await credits(u)).toBe(27.5);
      // …then the renewal is a Starter month, with Starter's rollover cap (5) on the unspent plan credits.
      await stripe.renew(sub);
      expect(await subscription(u)).toMatchObject({ plan: 'starter', interval: 'month', status: 'active' });
      expect(await credits(u)).toBe(ROLLOVER_CAP.starter! + 15);
      expect((await ledgerRows(u)).slice(0, 2)).toEqual([
        ['purchase', 15, 'Starter plan renewal'],
        ['expire', -22.5, 'Rollover above 5 credits'],
      ]);

      // Cancel: the plan runs to the end of the period, then ends; nothing more is granted.
      await stripe.portalCancel(sub);
      expect(await subscription(u)).toMatchObject({ plan: 'starter', status: 'active', cancel_at_period_end: true });
      await stripe.renew(sub);
      expect((await subscription(u)).status).toBe('canceled');
      expect(await credits(u)).toBe(20);
      expect(stripe.deliveries.every((d) => d.status === 200)).toBe(true);
      const b = await ledgerBalances(server.ctx.db.kysely, u.id);
      expect(b.granted).toBe(b.available + b.held + b.consumed);
    });

    it('switching from monthly to yearly in the portal starts a paid year at once, less the unused month', async () => {
      const u = await insertUser(server);
      const sub = await subscribe(u, 'starter', 'month');
      await stripe.portalSwitch(sub, priceFor('hookreel_growth_year'), 0.5);
      expect(await subscription(u)).toMatchObject({ plan: 'growth', interval: 'year', status: 'active' });
      // 40 × 12 for the year, less half of Starter's 15 for the unused half month.
      expect(await credits(u)).toBe(15 + 480 - 7.5);
    });

    it('refuses a second subscription while one is active (changes go through the portal)', async () => {
      const u = await insertUser(server);
      await api(u, 'POST', '/billing/checkout', { plan: 'agency', interval: 'month' });
      const customer = await customerOf(u);
      const sub = `sub_test_${++seq}`;
      await deliver(event('invoice.paid', invoice(u, customer, sub, 'agency', 'subscription_create')));
      expect(await credits(u)).toBe(100);
      const again = await api(u, 'POST', '/billing/checkout', { plan: 'starter', interval: 'month' });
      expect(again.status).toBe(409);
      // Unlimited rollover: a renewal keeps everything.
      await deliver(event('invoice.paid', invoice(u, customer, sub, 'agency', 'subscription_cycle')));
      expect(await credits(u)).toBe(200);
    });
  });
}
