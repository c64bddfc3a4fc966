import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: the form-encoded parameters decoded into nested objects, as Stripe reads them. */
export interface StripeCall {
  method: string;
  path: string;
  params: Record<string, unknown>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

export interface FakeStripe {
  /** STRIPE_API_URL for the server under test. */
  url: string;
  calls: StripeCall[];
  /** Makes the next `times` calls fail like a provider in trouble (HTTP 500 with a Stripe api_error). */
  failNext(times?: number): void;
  /** Where Stripe's side of the story goes: events signed with `secret` as Stripe signs them, POSTed to `url`. */
  sendWebhooksTo(url: string, secret: string): void;
  /** Every event the fake delivered, in order, with the webhook's answer. */
  deliveries: Array<{ type: string; id: string; status: number }>;
  /** The customer pays the Checkout Session: a bundle is paid; a plan starts its subscription and first invoice. */
  payCheckout(sessionId: string): Promise<{ subscription: string | null }>;
  /**
   * The customer switches plan in the Customer Portal, `elapsed` (0..1) into the period, following the portal
   * configuration made by the server: an upgrade is charged at once, prorated; a cheaper or shorter price waits
   * for the end of the period.
   */
  portalSwitch(subscription: string, price: string, elapsed?: number): Promise<void>;
  /** The customer cancels in the portal (at the end of the period, as configured). */
  portalCancel(subscription: string): Promise<void>;
  /** The period ends: a scheduled change starts, then the renewal is paid, or a cancelled subscription ends. */
  renew(subscription: string): Promise<void>;
  prices: Map<string, FakePrice>;
  portalConfigurations: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface FakePrice {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  product: string;
  unit_amount: number;
  recurring: { interval: 'month' | 'year' } | null;
  lookup_key: string | null;
  metadata: Record<string, string>;
}

interface FakeSubscription {
  id: string;
  customer: string;
  price: string;
  metadata: Record<string, string>;
  status: 'active' | 'canceled';
  cancel_at_period_end: boolean;
  /** Unix seconds. */
  periodStart: number;
  periodEnd: number;
  /** A price that starts at the end of the period (a downgrade scheduled in the portal). */
  pending: string | null;
}

const DAY = 86_400;
const periodOf = (interval: 'month' | 'year') => (interval === 'year' ? 365 : 30) * DAY;

/**
 * A local stand-in for the parts of the Stripe REST API we call (customers, products, prices by lookup key,
 * Checkout Sessions, Customer Portal configurations and sessions), speaking its documented protocol: form-encoded
 * bodies with bracketed keys, bearer secret keys, JSON objects with `object` and ids, lists, and
 * `{error: {type, message}}` on failure. The real SDK is pointed at it. It also plays Stripe's side after a
 * redirect (the customer pays, switches plan or cancels in the portal, a period renews): it sends the events
 * Stripe sends, signed with the endpoint secret as Stripe signs them.
 */
/** A Stripe event envelope around `object`, as the API sends it. */
export const stripeEvent = (type: string, object: Record<string, unknown>, id: string) => ({
  id,
  object: 'event',
  api_version: '2026-10-28.endive',
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

/** The server's environment for Stripe billing against `stripe`, the fake. */
export const stripeBillingEnv = (stripe: FakeStripe, secretKey: string, webhookSecret: string) => ({
  BILLING: 'stripe',
  STRIPE_SECRET_KEY: secretKey,
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  STRIPE_API_URL: stripe.url,
});

export async function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const calls: StripeCall[] = [];
  let seq = 0;
  let failures = 0;
  const prices = new Map<string, FakePrice>();
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, FakeSubscription>();
  const portalConfigurations: Array<Record<string, unknown>> = [];
  const deliveries: FakeStripe['deliveries'] = [];
  let webhook: { url: string; secret: string } | null = null;
  const newId = (prefix: string) => `${prefix}_test${String(++seq).padStart(6, '0')}`;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const params = decodeForm(body);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      calls.push({
        method: req.method ?? 'GET',
        path,
        params,
        authorization: req.headers.authorization,
        idempotencyKey: header(req, 'idempotency-key'),
      });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++seq}` });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (failures > 0) {
        failures--;
        return send(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
      }
      const id = newId;
      const query = new URL(req.url ?? '/', 'http://stripe.test').searchParams;
      const list = (data: unknown[]) => ({ object: 'list', data, has_more: false, url: path });
      if (req.method === 'POST' && path === '/v1/products') {
        return send(200, { id: id('prod'), object: 'product', name: params.name, metadata: params.metadata ?? {} });
      }
      if (req.method === 'GET' && path === '/v1/prices') {
        const keys = [...query].filter(([k]) => /^lookup_keys\[\d*\]$/.test(k)).map(([, v]) => v);
        const found = [...prices.values()].filter(
          (p) => p.active && (keys.length === 0 || (p.lookup_key !== null && keys.includes(p.lookup_key))),
        );
        return send(200, list(found));
      }
      if (req.method === 'POST' && path === '/v1/prices') {
        const key = typeof params.lookup_key === 'string' ? params.lookup_key : null;
        const taken = [...prices.values()].find((p) => key !== null && p.lookup_key === key);
        if (taken && params.transfer_lookup_key !== 'true') {
          return send(400, {
            error: { type: 'invalid_request_error', message: 'A price with this lookup_key exists' },
          });
        }
        if (taken) taken.lookup_key = null;
        const recurring = params.recurring as { interval: 'month' | 'year' } | undefined;
        const price: FakePrice = {
          id: id('price'),
          object: 'price',
          active: true,
          currency: String(params.currency),
          product: String(params.product),
          unit_amount: Number(params.unit_amount),
          recurring: recurring ? { interval: recurring.interval } : null,
          lookup_key: key,
          metadata: (params.metadata as Record<string, string>) ?? {},
        };
        prices.set(price.id, price);
        return send(200, price);
      }
      const priceMatch = /^\/v1\/prices\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && priceMatch) {
        const price = prices.get(priceMatch[1]!);
        return price
          ? send(200, price)
          : send(404, { error: { type: 'invalid_request_error', message: `No such price: '${priceMatch[1]}'` } });
      }
      if (req.method === 'GET' && path === '/v1/billing_portal/configurations') {
        return send(200, list(portalConfigurations.filter((c) => c.active)));
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/configurations') {
        const config = { id: id('bpc'), object: 'billing_portal.configuration', active: true, ...params };
        portalConfigurations.push(config);
        return send(200, config);
      }
      if (req.method === 'POST' && path === '/v1/customers') {
        return send(200, { id: id('cus'), object: 'customer', email: params.email, metadata: params.metadata ?? {} });
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        if (!params.customer || !params.mode || !params.success_url) {
          return send(400, { error: { type: 'invalid_request_error', message: 'Missing required param' } });
        }
        const sid = id('cs');
        const session = {
          id: sid,
          object: 'checkout.session',
          mode: params.mode,
          customer: params.customer,
          metadata: params.metadata ?? {},
          status: 'open',
          url: `https://checkout.stripe.test/c/pay/${sid}`,
        };
        sessions.set(sid, { ...session, line_items: params.line_items, subscription_data: params.subscription_data });
        return send(200, session);
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        if (params.configuration && !portalConfigurations.some((c) => c.id === params.configuration)) {
          return send(400, { error: { type: 'invalid_request_error', message: 'No such configuration' } });
        }
        const pid = id('bps');
        return send(200, {
          id: pid,
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url,
          url: `https://billing.stripe.test/p/session/${pid}`,
        });
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** Stripe's signature: `t=<unix>,v1=<HMAC-SHA256 of "t.payload" with the endpoint secret>`. */
  const deliver = async (type: string, object: Record<string, unknown>) => {
    if (!webhook) throw new Error('sendWebhooksTo first');
    const evt = stripeEvent(type, object, newId('evt'));
    const payload = JSON.stringify(evt);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', webhook.secret).update(`${t}.${payload}`).digest('hex');
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` },
      body: payload,
    });
    await res.arrayBuffer();
    deliveries.push({ type, id: evt.id, status: res.status });
  };
  const priceOf = (id: string) => {
    const price = prices.get(id);
    if (!price?.recurring) throw new Error(`not a recurring price: ${id}`);
    return price as FakePrice & { recurring: { interval: 'month' | 'year' } };
  };
  const subscriptionObject = (sub: FakeSubscription) => ({
    id: sub.id,
    object: 'subscription',
    customer: sub.customer,
    status: sub.status,
    cancel_at_period_end: sub.cancel_at_period_end,
    metadata: sub.metadata,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${sub.id}`,
          object: 'subscription_item',
          price: prices.get(sub.price),
          current_period_start: sub.periodStart,
          current_period_end: sub.periodEnd,
        },
      ],
    },
  });
  const line = (price: FakePrice, amount: number, proration: boolean, start: number, end: number) => ({
    id: newId('il'),
    object: 'line_item',
    amount,
    currency: 'usd',
    period: { start, end },
    pricing: { type: 'price_details', price_details: { price: price.id, product: price.product } },
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: { proration, subscription: null, subscription_item: null },
    },
  });
  const invoicePaid = (sub: FakeSubscription, reason: string, lines: ReturnType<typeof line>[]) =>
    deliver('invoice.paid', {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      billing_reason: reason,
      status: 'paid',
      amount_paid: Math.max(
        0,
        lines.reduce((sum, l) => sum + l.amount, 0),
      ),
      period_end: sub.periodStart,
      lines: { object: 'list', data: lines, has_more: false },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
    });
  const subOf = (id: string) => {
    const sub = subscriptions.get(id);
    if (!sub) throw new Error(`no subscription ${id}`);
    return sub;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    deliveries,
    prices,
    portalConfigurations,
    failNext: (times = 1) => {
      failures = times;
    },
    sendWebhooksTo: (url, secret) => {
      webhook = { url, secret };
    },
    async payCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const { line_items, subscription_data, ...visible } = session;
      if (visible.mode !== 'subscription') {
        await deliver('checkout.session.completed', { ...visible, status: 'complete', payment_status: 'paid' });
        return { subscription: null };
      }
      const items = line_items as Array<{ price: string }>;
      const price = priceOf(items[0]!.price);
      const start = Math.floor(Date.now() / 1000);
      const sub: FakeSubscription = {
        id: newId('sub'),
        customer: String(visible.customer),
        price: price.id,
        metadata: (subscription_data as { metadata?: Record<string, string> } | undefined)?.metadata ?? {},
        status: 'active',
        cancel_at_period_end: false,
        periodStart: start,
        periodEnd: start + periodOf(price.recurring.interval),
        pending: null,
      };
      subscriptions.set(sub.id, sub);
      // Stripe does not promise an order: the first invoice is sent before the session's completion here.
      await deliver('customer.subscription.created', subscriptionObject(sub));
      await invoicePaid(sub, 'subscription_create', [
        line(price, price.unit_amount, false, sub.periodStart, sub.periodEnd),
      ]);
      await deliver('checkout.session.completed', {
        ...visible,
        status: 'complete',
        payment_status: 'paid',
        subscription: sub.id,
      });
      return { subscription: sub.id };
    },
    async portalSwitch(subscription, priceId, elapsed = 0.5) {
      const sub = subOf(subscription);
      const from = priceOf(sub.price);
      const to = priceOf(priceId);
      const rules = (portalConfigurations.at(-1)?.features as Record<string, Record<string, unknown>> | undefined)
        ?.subscription_update;
      if (!rules || rules.enabled !== 'true') throw new Error('plan changes are not enabled in the portal');
      const conditions = (
        (rules.schedule_at_period_end as { conditions?: Array<{ type: string }> } | undefined)?.conditions ?? []
      ).map((c) => c.type);
      const perDay = (p: FakePrice & { recurring: { interval: 'month' | 'year' } }) =>
        p.unit_amount / periodOf(p.recurring.interval);
      const cheaper = perDay(to) < perDay(from);
      const shorter = periodOf(to.recurring.interval) < periodOf(from.recurring.interval);
      if (
        (cheaper && conditions.includes('decreasing_item_amount')) ||
        (shorter && conditions.includes('shortening_interval'))
      ) {
        sub.pending = to.id;
        await deliver('customer.subscription.updated', subscriptionObject(sub));
        return;
      }
      const now = sub.periodStart + Math.round((sub.periodEnd - sub.periodStart) * elapsed);
      const unused = -Math.round(from.unit_amount * (1 - elapsed));
      sub.price = to.id;
      let lines;
      if (to.recurring.interval === from.recurring.interval) {
        lines = [
          line(from, unused, true, now, sub.periodEnd),
          line(to, Math.round(to.unit_amount * (1 - elapsed)), true, now, sub.periodEnd),
        ];
      } else {
        // A new interval starts a new billing period now: credit for the unused time, the new period in full.
        lines = [
          line(from, unused, true, now, sub.periodEnd),
          line(to, to.unit_amount, false, now, now + periodOf(to.recurring.interval)),
        ];
        sub.periodStart = now;
        sub.periodEnd = now + periodOf(to.recurring.interval);
      }
      await deliver('customer.subscription.updated', subscriptionObject(sub));
      if (rules.proration_behavior === 'always_invoice') await invoicePaid(sub, 'subscription_update', lines);
    },
    async portalCancel(subscription) {
      const sub = subOf(subscription);
      const cancel = portalConfigurations.at(-1)?.features as Record<string, Record<string, unknown>> | undefined;
      if (cancel?.subscription_cancel?.enabled !== 'true') throw new Error('cancelling is not enabled in the portal');
      sub.cancel_at_period_end = true;
      await deliver('customer.subscription.updated', subscriptionObject(sub));
    },
    async renew(subscription) {
      const sub = subOf(subscription);
      if (sub.cancel_at_period_end) {
        sub.status = 'canceled';
        await deliver('customer.subscription.deleted', subscriptionObject(sub));
        return;
      }
      sub.periodStart = sub.periodEnd;
      if (sub.pending) {
        sub.price = sub.pending;
        sub.pending = null;
      }
      const price = priceOf(sub.price);
      sub.periodEnd = sub.periodStart + periodOf(price.recurring.interval);
      await deliver('customer.subscription.updated', subscriptionObject(sub));
      await invoicePaid(sub, 'subscription_cycle', [
        line(price, price.unit_amount, false, sub.periodStart, sub.periodEnd),
      ]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `line_items[0][price_data][unit_amount]=19900` → { line_items: [{ price_data: { unit_amount: '19900' } }] } */
export function decodeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1] as string);
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown> | unknown[];
      }
    });
  }
  return out;
}
