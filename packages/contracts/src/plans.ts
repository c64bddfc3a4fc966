/** Plans and pricing (docs/product.md#credits). Payment is simulated; these are client constants shared with the server. */
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
    features: ['15 videos per month', '100+ AI actors', 'All languages and accents', 'Roll over up to 5 credits'],
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
