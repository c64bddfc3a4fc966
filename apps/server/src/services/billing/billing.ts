import {
  PURCHASE_REFUSALS,
  type BillingInterval,
  type BillingState,
  type CheckoutRequest,
  type Plan,
  ROLLOVER_CAP,
  bundleById,
  planById,
  planPrice,
} from '@hookreel/contracts';
import Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import type { Caller } from '../account/index.ts';
import { billingRepository as repo } from '../../db/repositories/billing.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import type { Executor } from '../../db/database.ts';
import { HttpError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.ts';
import { type PlanPrice, catalogue, planOfPrice } from './catalogue.ts';
import { expirePlanCredits, grantCredits, toHundredths } from './credits.ts';

export const BILLING_MESSAGES = {
  off: 'Purchases are turned off on this server',
  portalUnavailable: 'The billing portal is available only with Stripe billing',
  noCustomer: 'You have no billing account yet: subscribe or buy credits first',
  alreadySubscribed: 'You already have a subscription: change or cancel it in the billing portal',
  alreadyYourPlan: 'This is already your plan',
  badSignature: 'Invalid webhook signature',
  futureEvent: 'The event is dated in the future',
  providerDown: 'The payment provider cannot be reached. Please try again later.',
} as const;

/** Credits a plan grants for one paid period: a month's allowance, or twelve of them for a year. */
export const planCredits = (plan: Plan, interval: BillingInterval): number =>
  interval === 'year' ? plan.credits * 12 : plan.credits;

type StripeConfig = Extract<AppContext['config']['billing'], { mode: 'stripe' }>;

const clients = new WeakMap<StripeConfig, Stripe>();
/** The official SDK, pointed at STRIPE_API_URL when set (tests run it against a local fake of the API). */
export function stripeClient(cfg: StripeConfig): Stripe {
  let client = clients.get(cfg);
  if (!client) {
    client = new Stripe(cfg.secretKey, {
      ...(cfg.api ? { host: cfg.api.host, port: cfg.api.port, protocol: cfg.api.protocol } : {}),
      maxNetworkRetries: 1,
      timeout: 20_000,
      appInfo: { name: 'Hookreel' },
    });
    clients.set(cfg, client);
  }
  return client;
}

/** Who is asking: the account, and the API key when the request came with one instead of a session. */
type Buyer = Caller;

/**
 * Why this caller may not buy or open the portal, whatever the mode: an API key never spends money (a leaked key
 * must not run up a bill or mint demo credits), and an unverified address is how credits were farmed.
 */
function purchaseBlocked(buyer: Buyer, user: { email_verified_at: string | null }): string | null {
  if (buyer.apiKeyId !== undefined) return PURCHASE_REFUSALS.apiKey;
  if (user.email_verified_at === null) return PURCHASE_REFUSALS.unverified;
  return null;
}

async function assertMayBuy(ctx: AppContext, buyer: Buyer) {
  const user = await usersRepository.findById(ctx.db.kysely, buyer.userId);
  if (!user) throw unauthorized();
  const blocked = purchaseBlocked(buyer, user);
  if (blocked) throw forbidden(blocked);
  return user;
}

/** GET /api/billing/subscription */
export async function billingState(ctx: AppContext, buyer: Buyer): Promise<BillingState> {
  const userId = buyer.userId;
  const mode = ctx.config.billing.mode;
  const user = await usersRepository.findById(ctx.db.kysely, userId);
  if (!user) throw unauthorized();
  const sub = await repo.currentSubscription(ctx.db.kysely, userId);
  const customer = mode === 'stripe' ? await repo.customerOf(ctx.db.kysely, userId) : null;
  return {
    purchase_blocked: mode === 'off' ? null : purchaseBlocked(buyer, user),
    mode,
    subscription: sub
      ? {
          plan: sub.plan,
          interval: sub.interval,
          status: sub.status,
          cancel_at_period_end: sub.cancel_at_period_end === 1,
          current_period_end: sub.current_period_end,
        }
      : null,
    portal: customer !== null,
  };
}

/** POST /api/billing/checkout → {url}: a Stripe Checkout page, or in demo mode the credits granted at once. */
export async function checkout(ctx: AppContext, buyer: Buyer, body: CheckoutRequest): Promise<{ url: string }> {
  const billing = ctx.config.billing;
  if (billing.mode === 'off') throw notFound(BILLING_MESSAGES.off);
  const user = await assertMayBuy(ctx, buyer);
  const userId = user.id;
  const back = `${ctx.config.publicUrl}/credits`;
  if (billing.mode === 'demo') return demoCheckout(ctx, userId, body, back);

  const existing = await repo.currentSubscription(ctx.db.kysely, userId);
  if ('plan' in body && existing && existing.status !== 'canceled') throw conflict(BILLING_MESSAGES.alreadySubscribed);
  const stripe = stripeClient(billing);
  const customer = await ensureCustomer(ctx, stripe, userId, user.email);
  const common = {
    customer,
    client_reference_id: String(userId),
    success_url: `${back}?checkout=success`,
    cancel_url: `${back}?checkout=cancelled`,
  };
  const session = await callStripe(async () => {
    if ('plan' in body) {
      const plan = planById(body.plan);
      const metadata = { user_id: String(userId), kind: 'plan', plan: plan.id, interval: body.interval };
      // Catalogue prices made from our one price list (contracts), so the amount is the one /credits shows and
      // the Customer Portal can switch the subscription between plans (decision 104).
      const prices = await catalogue(stripe);
      return stripe.checkout.sessions.create({
        ...common,
        mode: 'subscription',
        line_items: [{ quantity: 1, price: prices.priceOf(plan.id, body.interval) }],
        metadata,
        subscription_data: { metadata },
      });
    }
    const bundle = bundleById(body.bundle);
    return stripe.checkout.sessions.create({
      ...common,
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: bundle.price * 100,
            product_data: { name: `Hookreel ${bundle.credits} credits`, metadata: { bundle: bundle.id } },
          },
        },
      ],
      metadata: { user_id: String(userId), kind: 'bundle', bundle: bundle.id, credits: String(bundle.credits) },
    });
  });
  if (!session.url) throw new HttpError(502, BILLING_MESSAGES.providerDown);
  return { url: session.url };
}

/** Demo mode: no money moves; the plan's (or bundle's) credits are granted as a purchase, labelled as a demo. */
async function demoCheckout(ctx: AppContext, userId: number, body: CheckoutRequest, back: string) {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    if ('plan' in body) {
      const plan = planById(body.plan);
      // The plan one already has is not sold again: a second subscribe would grant its credits twice.
      const current = await repo.currentSubscription(trx, userId);
      if (current && current.status !== 'canceled' && current.plan === plan.id && current.interval === body.interval)
        throw conflict(BILLING_MESSAGES.alreadyYourPlan);
      await repo.replaceDemo(trx, userId, { plan: plan.id, interval: body.interval });
      await grantCredits(trx, userId, toHundredths(planCredits(plan, body.interval)), `${plan.name} plan (demo)`, {
        kind: 'purchase',
        plan: true,
        ref: 'demo',
      });
    } else {
      const bundle = bundleById(body.bundle);
      await grantCredits(trx, userId, toHundredths(bundle.credits), `${bundle.credits} credits bundle (demo)`, {
        kind: 'purchase',
        ref: 'demo',
      });
    }
  });
  return { url: `${back}?checkout=success` };
}

/** POST /api/billing/portal → {url}: Stripe's Customer Portal (cancel, payment methods, invoices). */
export async function portal(ctx: AppContext, buyer: Buyer): Promise<{ url: string }> {
  const billing = ctx.config.billing;
  if (billing.mode !== 'stripe') throw notFound(BILLING_MESSAGES.portalUnavailable);
  const userId = (await assertMayBuy(ctx, buyer)).id;
  const customer = await repo.customerOf(ctx.db.kysely, userId);
  if (!customer) throw conflict(BILLING_MESSAGES.noCustomer);
  const stripe = stripeClient(billing);
  const session = await callStripe(async () =>
    stripe.billingPortal.sessions.create({
      customer,
      configuration: (await catalogue(stripe)).portalConfiguration,
      return_url: `${ctx.config.publicUrl}/credits?portal=return`,
    }),
  );
  return { url: session.url };
}

async function ensureCustomer(ctx: AppContext, stripe: Stripe, userId: number, email: string): Promise<string> {
  const known = await repo.customerOf(ctx.db.kysely, userId);
  if (known) return known;
  const created = await callStripe(() => stripe.customers.create({ email, metadata: { user_id: String(userId) } }));
  return repo.saveCustomer(ctx.db.kysely, userId, created.id);
}

/** Stripe's own refusals (bad request) stay 4xx for the caller; a provider that cannot be reached is a 502. */
async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError) throw badRequest(err.message);
    throw new HttpError(502, BILLING_MESSAGES.providerDown);
  }
}

// Webhook ---------------------------------------------------------------------------------------------------

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

/** How far ahead of our clock an event's date may be (clocks drift; Stripe's own tolerance is 5 minutes). */
export const CLOCK_SKEW_SEC = 300;

/**
 * POST /api/billing/webhook: the raw body's signature is verified with STRIPE_WEBHOOK_SECRET (400 otherwise),
 * then the event is applied in one transaction with its id claimed, so a replay changes nothing.
 */
export async function handleWebhook(
  ctx: AppContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  const billing = ctx.config.billing;
  if (billing.mode !== 'stripe') throw notFound(BILLING_MESSAGES.off);
  if (!signature) throw badRequest(BILLING_MESSAGES.badSignature);
  let event: Stripe.Event;
  try {
    event = await stripeClient(billing).webhooks.constructEventAsync(rawBody, signature, billing.webhookSecret);
  } catch {
    throw badRequest(BILLING_MESSAGES.badSignature);
  }
  // Stripe's check refuses old signatures but not ones from the future: an event or signature dated ahead of
  // our clock (more than the allowed skew) is refused, so a forged or replayed-forward event is not applied.
  const nowSec = Date.now() / 1000;
  const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1] ?? 0);
  if (event.created > nowSec + CLOCK_SKEW_SEC || signedAt > nowSec + CLOCK_SKEW_SEC) {
    throw badRequest(BILLING_MESSAGES.futureEvent);
  }
  if (!HANDLED.has(event.type)) return 'ignored';
  // Which plan each invoice line paid for, asked of Stripe before the transaction (never inside one). If Stripe
  // cannot answer, the 502 makes Stripe deliver the event again later.
  const prices =
    event.type === 'invoice.paid'
      ? await callStripe(() => linePlans(stripeClient(billing), event.data.object))
      : new Map<string, PlanPrice>();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    if (!(await repo.claimEvent(trx, event.id, event.type))) return 'duplicate';
    await applyEvent(trx, event, prices);
    return 'applied';
  });
}

const HANDLED = new Set<string>([
  'checkout.session.completed',
  'invoice.paid',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

async function applyEvent(trx: Executor, event: Stripe.Event, prices: Map<string, PlanPrice>): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
      return sessionCompleted(trx, event.data.object, event.id);
    case 'invoice.paid':
      return invoicePaid(trx, event.data.object, event.id, prices);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(trx, event.data.object);
    default:
      return;
  }
}

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : v.id;

const priceIdOf = (line: Stripe.InvoiceLineItem): string | null => idOf(line.pricing?.price_details?.price);
const isProration = (line: Stripe.InvoiceLineItem): boolean =>
  line.parent?.subscription_item_details?.proration ?? line.parent?.invoice_item_details?.proration ?? false;

/** The plan of each price on an invoice's lines: our catalogue's, or (an older price) its own metadata. */
async function linePlans(stripe: Stripe, invoice: Stripe.Invoice): Promise<Map<string, PlanPrice>> {
  const out = new Map<string, PlanPrice>();
  const ids = new Set((invoice.lines?.data ?? []).map(priceIdOf).filter((id): id is string => id !== null));
  if (ids.size === 0) return out;
  const cat = await catalogue(stripe);
  for (const id of ids) {
    const known = cat.planOf(id) ?? planOfPrice(await stripe.prices.retrieve(id));
    if (known) out.set(id, known);
  }
  return out;
}

async function userFor(trx: Executor, metadata: Stripe.Metadata | null | undefined, customer: string | null) {
  const fromCustomer = customer ? await repo.userOfCustomer(trx, customer) : null;
  if (fromCustomer !== null) return fromCustomer;
  const id = Number(metadata?.user_id);
  if (!Number.isInteger(id) || id <= 0) return null;
  return (await usersRepository.findById(trx, id)) ? id : null;
}

const isPlanId = (v: unknown): v is Plan['id'] => v === 'starter' || v === 'growth' || v === 'agency';
const isInterval = (v: unknown): v is BillingInterval => v === 'month' || v === 'year';
const isoFromUnix = (s: number | null | undefined) => (s ? new Date(s * 1000).toISOString() : null);

/** A bundle is paid for in its session; a plan's credits come with its invoices (invoice.paid), never here. */
async function sessionCompleted(trx: Executor, session: Stripe.Checkout.Session, eventId: string) {
  const userId = await userFor(trx, session.metadata, idOf(session.customer));
  if (userId === null) return;
  const meta = session.metadata ?? {};
  if (session.mode === 'payment' && meta.kind === 'bundle') {
    if (session.payment_status !== 'paid') return;
    const credits = Number(meta.credits);
    if (!Number.isFinite(credits) || credits <= 0) return;
    await grantCredits(trx, userId, toHundredths(credits), `${credits} credits bundle`, {
      kind: 'purchase',
      ref: eventId,
    });
    return;
  }
  const subscription = idOf(session.subscription);
  if (session.mode === 'subscription' && subscription && isPlanId(meta.plan) && isInterval(meta.interval)) {
    await repo.upsertExternal(trx, userId, subscription, { plan: meta.plan, interval: meta.interval });
  }
}

/**
 * Each paid invoice of a subscription grants the plan's credits. A renewal (billing_reason subscription_cycle)
 * first expires the unspent allowance above the plan's rollover cap; a renewal of a cancelled subscription
 * grants nothing.
 */
async function invoicePaid(trx: Executor, invoice: Stripe.Invoice, eventId: string, prices: Map<string, PlanPrice>) {
  const details = invoice.parent?.subscription_details;
  const subscription = idOf(details?.subscription);
  if (!subscription) return;
  const meta = details?.metadata ?? {};
  const userId = await userFor(trx, meta, idOf(invoice.customer));
  if (userId === null) return;
  const known = await repo.findByExternalId(trx, subscription);
  if (invoice.billing_reason === 'subscription_update') {
    return planChangeInvoice(trx, userId, subscription, invoice, eventId, prices, known?.status === 'canceled');
  }
  // What the invoice's plan line paid for wins: the subscription's metadata keeps the plan first bought, and a
  // plan changed in the portal (a downgrade starting at renewal) shows only on the line.
  const paidLine = (invoice.lines?.data ?? []).find((l) => !isProration(l) && prices.has(priceIdOf(l) ?? ''));
  const fromLine = paidLine ? prices.get(priceIdOf(paidLine)!) : undefined;
  const planId = fromLine?.plan ?? (isPlanId(meta.plan) ? meta.plan : known?.plan);
  const interval = fromLine?.interval ?? (isInterval(meta.interval) ? meta.interval : known?.interval);
  if (!planId || !interval) return;
  const renewal = invoice.billing_reason === 'subscription_cycle';
  if (renewal && known?.status === 'canceled') return;
  const periodEnd = isoFromUnix(invoice.lines?.data?.[0]?.period?.end ?? invoice.period_end);
  await repo.upsertExternal(trx, userId, subscription, {
    plan: planId,
    interval,
    current_period_end: periodEnd,
    ...(known?.status === 'canceled' ? {} : { status: 'active' as const }),
  });
  const plan = planById(planId);
  if (renewal) {
    const cap = ROLLOVER_CAP[plan.id];
    if (cap !== null) await expirePlanCredits(trx, userId, toHundredths(cap), `Rollover above ${cap} credits`);
  }
  await grantCredits(
    trx,
    userId,
    toHundredths(planCredits(plan, interval)),
    `${plan.name} plan${renewal ? ' renewal' : ''}`,
    { kind: 'purchase', plan: true, ref: eventId },
  );
}

/**
 * A plan changed in the Customer Portal is charged at once, prorated, on an invoice of proration lines: unused
 * time on the old price (negative) and the rest of the period on the new one. The credits follow the money: each
 * line's share of its plan's credits for a full period, summed. An upgrade halfway through a Starter month to
 * Growth grants (40 − 15) / 2 = 12.50 credits. A sum at or below zero (possible only if Stripe is configured to
 * downgrade at once) takes nothing back: credits already granted stay.
 */
async function planChangeInvoice(
  trx: Executor,
  userId: number,
  subscription: string,
  invoice: Stripe.Invoice,
  eventId: string,
  prices: Map<string, PlanPrice>,
  canceled: boolean,
) {
  let credits = 0;
  let now: PlanPrice | undefined;
  for (const line of invoice.lines?.data ?? []) {
    const pp = prices.get(priceIdOf(line) ?? '');
    if (!pp) continue;
    const plan = planById(pp.plan);
    credits += (planCredits(plan, pp.interval) * line.amount) / (planPrice(plan, pp.interval) * 100);
    if (line.amount > 0) now = pp;
  }
  if (!now) return;
  await repo.upsertExternal(trx, userId, subscription, {
    plan: now.plan,
    interval: now.interval,
    ...(canceled ? {} : { status: 'active' as const }),
  });
  const hundredths = Math.floor(credits * 100 + 1e-6);
  if (hundredths > 0) {
    await grantCredits(trx, userId, hundredths, `${planById(now.plan).name} plan upgrade (prorated)`, {
      kind: 'purchase',
      plan: true,
      ref: eventId,
    });
  }
}

/** Cancellation (now or at period end) and status changes, so renewals stop when the subscription does. */
async function subscriptionChanged(trx: Executor, sub: Stripe.Subscription) {
  const status = sub.status === 'canceled' ? 'canceled' : sub.status === 'past_due' ? 'past_due' : 'active';
  const item = sub.items?.data?.[0];
  const periodEnd = isoFromUnix(item?.current_period_end);
  // The plan the subscription is on now (changed in the portal), named by its catalogue price.
  const current = planOfPrice(item?.price);
  const fields = {
    status: status as 'active' | 'past_due' | 'canceled',
    cancel_at_period_end: sub.cancel_at_period_end ? 1 : 0,
    ...(periodEnd ? { current_period_end: periodEnd } : {}),
    ...(current ? { plan: current.plan, interval: current.interval } : {}),
  };
  if (await repo.updateExternal(trx, sub.id, fields)) return;
  // The subscription's first event may arrive before checkout.session.completed: record it from its metadata.
  const userId = await userFor(trx, sub.metadata, idOf(sub.customer));
  const meta = sub.metadata ?? {};
  if (userId !== null && isPlanId(meta.plan) && isInterval(meta.interval)) {
    await repo.upsertExternal(trx, userId, sub.id, { plan: meta.plan, interval: meta.interval, ...fields });
  }
}
