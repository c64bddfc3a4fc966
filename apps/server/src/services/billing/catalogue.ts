import { createHash } from 'node:crypto';
import { type BillingInterval, type Plan, PLANS, planById, planPrice } from '@hookreel/contracts';
import type Stripe from 'stripe';

/**
 * The plans as Stripe catalogue prices, found by lookup key (`hookreel_growth_month`…) and created when missing or
 * when the contracts' price changed (the key moves to the new price). The Customer Portal can switch a subscription
 * only between catalogue prices, so plan changes (upgrade, downgrade, interval) go through these (decision 104).
 */
export interface PlanPrice {
  plan: Plan['id'];
  interval: BillingInterval;
}
export interface Catalogue {
  /** Price id of each plan and interval. */
  priceOf(plan: Plan['id'], interval: BillingInterval): string;
  /** The plan a price id of this catalogue sells, if it is one. */
  planOf(priceId: string): PlanPrice | undefined;
  /** The Customer Portal configuration that allows switching between these prices. */
  portalConfiguration: string;
}

const INTERVALS: readonly BillingInterval[] = ['month', 'year'];
export const lookupKey = (plan: Plan['id'], interval: BillingInterval) => `hookreel_${plan}_${interval}`;

/** A plan named by a price's metadata or lookup key (catalogue prices carry both). */
export function planOfPrice(price: Pick<Stripe.Price, 'metadata' | 'lookup_key'> | null | undefined) {
  if (!price) return undefined;
  const plan = price.metadata?.plan;
  const interval = price.metadata?.interval;
  if (PLANS.some((p) => p.id === plan) && (interval === 'month' || interval === 'year')) {
    return { plan: plan as Plan['id'], interval } satisfies PlanPrice;
  }
  const m = /^hookreel_(starter|growth|agency)_(month|year)$/.exec(price.lookup_key ?? '');
  return m ? { plan: m[1] as Plan['id'], interval: m[2] as BillingInterval } : undefined;
}

const cache = new WeakMap<Stripe, Promise<Catalogue>>();

/** The catalogue of this Stripe account, made once per process (a failure is retried on the next call). */
export function catalogue(stripe: Stripe): Promise<Catalogue> {
  let pending = cache.get(stripe);
  if (!pending) {
    pending = buildCatalogue(stripe);
    cache.set(stripe, pending);
    pending.catch(() => cache.delete(stripe));
  }
  return pending;
}

async function buildCatalogue(stripe: Stripe): Promise<Catalogue> {
  const keys = PLANS.flatMap((p) => INTERVALS.map((i) => lookupKey(p.id, i)));
  const listed = await stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 });
  const byKey = new Map<string, string>();
  const productOf = new Map<Plan['id'], string>();
  for (const price of listed.data) {
    const pp = planOfPrice(price);
    if (!pp) continue;
    const product = typeof price.product === 'string' ? price.product : price.product.id;
    productOf.set(pp.plan, product);
    // A price whose amount no longer matches /credits is replaced (below) and its lookup key moved.
    if (price.unit_amount === planPrice(planById(pp.plan), pp.interval) * 100 && price.lookup_key) {
      byKey.set(price.lookup_key, price.id);
    }
  }
  for (const plan of PLANS) {
    for (const interval of INTERVALS) {
      const key = lookupKey(plan.id, interval);
      if (byKey.has(key)) continue;
      let product = productOf.get(plan.id);
      if (!product) {
        product = (await stripe.products.create({ name: `Hookreel ${plan.name}`, metadata: { plan: plan.id } })).id;
        productOf.set(plan.id, product);
      }
      const created = await stripe.prices.create({
        product,
        currency: 'usd',
        unit_amount: planPrice(plan, interval) * 100,
        recurring: { interval },
        lookup_key: key,
        transfer_lookup_key: true,
        metadata: { plan: plan.id, interval },
      });
      byKey.set(key, created.id);
    }
  }
  const planByPrice = new Map<string, PlanPrice>();
  for (const plan of PLANS) {
    for (const interval of INTERVALS)
      planByPrice.set(byKey.get(lookupKey(plan.id, interval))!, { plan: plan.id, interval });
  }
  const portalConfiguration = await ensurePortalConfiguration(stripe, productOf, byKey);
  return {
    priceOf: (plan, interval) => byKey.get(lookupKey(plan, interval))!,
    planOf: (priceId) => planByPrice.get(priceId),
    portalConfiguration,
  };
}

/**
 * A portal configuration that lets a customer switch between the plans' prices, cancel at the end of the period,
 * update the card and see invoices. Upgrades are charged at once, prorated (`always_invoice`); downgrades and
 * shorter intervals wait for the end of the paid period, so nobody loses what they already paid for. Found again
 * by a fingerprint of its prices, so a restart reuses it.
 */
async function ensurePortalConfiguration(
  stripe: Stripe,
  productOf: Map<Plan['id'], string>,
  byKey: Map<string, string>,
): Promise<string> {
  const products = PLANS.map((p) => ({
    product: productOf.get(p.id)!,
    prices: INTERVALS.map((i) => byKey.get(lookupKey(p.id, i))!),
  }));
  const fingerprint = createHash('sha256').update(JSON.stringify(products)).digest('hex').slice(0, 32);
  const existing = await stripe.billingPortal.configurations.list({ active: true, limit: 100 });
  const found = existing.data.find((c) => c.metadata?.hookreel === fingerprint);
  if (found) return found.id;
  const created = await stripe.billingPortal.configurations.create({
    business_profile: { headline: 'Hookreel: manage your plan' },
    features: {
      subscription_update: {
        enabled: true,
        default_allowed_updates: ['price'],
        products,
        proration_behavior: 'always_invoice',
        schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }, { type: 'shortening_interval' }] },
      },
      subscription_cancel: { enabled: true, mode: 'at_period_end' },
      payment_method_update: { enabled: true },
      invoice_history: { enabled: true },
    },
    metadata: { hookreel: fingerprint },
  });
  return created.id;
}
