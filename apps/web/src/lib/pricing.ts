import { perMonthUnderYearly, perVideoPrice, yearlySavingsOf, type Plan } from '@hookreel/contracts';

export type BillingPeriod = 'monthly' | 'yearly';

export interface PlanPricing {
  /** The headline price for the period: monthly price, or yearly price floor(monthly×12×0.83). */
  price: number;
  period: 'month' | 'year';
  /** Under yearly billing: floor(yearly/12). */
  perMonth: number | null;
  /** Under yearly billing: monthly×12 − yearly. */
  savings: number | null;
  /** Price per video, 2 decimals. */
  perVideo: string;
}

/** Prices of a plan for a billing period, from the contracts helpers (docs/product.md#credits). */
export function planPricing(plan: Plan, period: BillingPeriod): PlanPricing {
  if (period === 'monthly') {
    return {
      price: plan.monthlyPrice,
      period: 'month',
      perMonth: null,
      savings: null,
      perVideo: perVideoPrice(plan.monthlyPrice, plan.videos),
    };
  }
  return {
    price: plan.yearlyPrice,
    period: 'year',
    perMonth: perMonthUnderYearly(plan.monthlyPrice),
    savings: yearlySavingsOf(plan.monthlyPrice),
    perVideo: perVideoPrice(plan.yearlyPrice, plan.videos * 12),
  };
}

/** Whole-dollar prices as the credits screen shows them: `$1982`, no grouping separator. */
export const formatUsd = (n: number) => `$${n}`;
