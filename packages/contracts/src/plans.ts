import { z } from 'zod';
/** Plans and pricing (docs/product.md#credits): client constants shared with the server, which sells them (docs/billing.md). */
export interface Plan {
  id: 'starter' | 'growth' | 'agency';
  name: string;
  /** The landing page names the third plan 'Scale'. */
  landingName: string;
  videos: number;
  credits: number;
  monthlyPrice: number;
  yearlyPrice: number;
  popular: boolean;
  rollover: string;
  features: string[];
}

export const YEARLY_FACTOR = 0.83;
export const YEARLY_DISCOUNT_LABEL = 'Save 17%';

export const yearlyPriceOf = (monthly: number): number => Math.floor(monthly * 12 * YEARLY_FACTOR);
export const yearlySavingsOf = (monthly: number): number => monthly * 12 - yearlyPriceOf(monthly);
export const perMonthUnderYearly = (monthly: number): number => Math.floor(yearlyPriceOf(monthly) / 12);
export const perVideoPrice = (price: number, videos: number): string => (price / videos).toFixed(2);

const plan = (p: Omit<Plan, 'yearlyPrice'>): Plan => ({ ...p, yearlyPrice: yearlyPriceOf(p.monthlyPrice) });

export const PLANS: readonly Plan[] = [
  plan({
    id: 'starter',
    name: 'Starter',
    landingName: 'Starter',
    videos: 15,
    credits: 15,
    monthlyPrice: 199,
    popular: false,
    rollover: '5',
    features: [
      '15 videos per month',
      'Every AI actor in the library',
      'All languages and accents',
      'Roll over up to 5 credits',
    ],
  }),
  plan({
    id: 'growth',
    name: 'Growth',
    landingName: 'Growth',
    videos: 40,
    credits: 40,
    monthlyPrice: 499,
    popular: true,
    rollover: '15',
    features: [
      '40 videos per month',
      'Hook packs',
      'Product in hand',
      'Roll over up to 15 credits',
      'Priority rendering',
    ],
  }),
  plan({
    id: 'agency',
    name: 'Agency',
    landingName: 'Scale',
    videos: 100,
    credits: 100,
    monthlyPrice: 999,
    popular: false,
    rollover: 'unlimited',
    features: ['100 videos per month', 'Everything in Growth', 'Unlimited credit rollover', 'Dedicated support'],
  }),
];

/** Credits a plan's unused balance may carry into the next month; null: unlimited (docs/product.md#credits). */
export const ROLLOVER_CAP: Record<Plan['id'], number | null> = { starter: 5, growth: 15, agency: null };

/**
 * One-time credit bundles: never expire (docs/product.md#credits). The product names them without prices; these are priced
 * above the Starter plan's per-video price so a subscription stays the better deal (decision 101).
 */
export interface CreditBundle {
  id: 'bundle-5' | 'bundle-20' | 'bundle-50';
  credits: number;
  price: number;
}
export const CREDIT_BUNDLES: readonly CreditBundle[] = [
  { id: 'bundle-5', credits: 5, price: 69 },
  { id: 'bundle-20', credits: 20, price: 259 },
  { id: 'bundle-50', credits: 50, price: 599 },
];

export const BILLING_MODES = ['demo', 'off', 'stripe'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

/** Why checkout and the billing portal refuse a caller (403), in every billing mode (decision 173). */
export const PURCHASE_REFUSALS = {
  unverified: 'Verify your e-mail address before buying: open the link we sent you, then come back here.',
  apiKey: 'Purchases and the billing portal need a signed-in session: an API key cannot buy.',
} as const;

export const PlanId = z.enum(['starter', 'growth', 'agency']);
export const BillingInterval = z.enum(['month', 'year']);
export type BillingInterval = z.infer<typeof BillingInterval>;
export const BundleId = z.enum(['bundle-5', 'bundle-20', 'bundle-50']);

/** POST /api/billing/checkout: a plan with its interval, or a one-time bundle. */
export const CheckoutRequest = z.union([
  z.object({ plan: PlanId, interval: BillingInterval }).strict(),
  z.object({ bundle: BundleId }).strict(),
]);
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;
export const RedirectUrl = z.object({ url: z.string() });

/** GET /api/billing/subscription */
export const BillingState = z.object({
  mode: z.enum(BILLING_MODES),
  subscription: z
    .object({
      plan: PlanId,
      interval: BillingInterval,
      status: z.enum(['active', 'past_due', 'canceled']),
      cancel_at_period_end: z.boolean(),
      current_period_end: z.string().nullable(),
    })
    .nullable(),
  /** Whether the Customer Portal can be opened (Stripe mode with a customer). */
  portal: z.boolean(),
  /** Why this caller may not buy (shown beside the disabled buttons), or null when they may. */
  purchase_blocked: z.string().nullable(),
});
export type BillingState = z.infer<typeof BillingState>;

export const planById = (id: Plan['id']): Plan => PLANS.find((p) => p.id === id) as Plan;
export const bundleById = (id: CreditBundle['id']): CreditBundle =>
  CREDIT_BUNDLES.find((b) => b.id === id) as CreditBundle;
/** What a plan costs for an interval, in whole dollars. */
export const planPrice = (plan: Plan, interval: BillingInterval): number =>
  interval === 'month' ? plan.monthlyPrice : plan.yearlyPrice;
