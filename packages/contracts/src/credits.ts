/**
 * What each generation costs in credits, and what a new account is granted. The product description states no
 * numbers for these (docs/product.md#credits); one credit buys one video (plans sell "videos/credits" one to one), images cost fractions.
 */
export const FREE_CREDITS_GRANT = 5;

export const PRICES = {
  video: 1,
  characterGeneration: 0.05,
  previewImage: 0.1,
  merge: 0.1,
} as const;

export type PricedOperation = keyof typeof PRICES;

/** Credits display: 2 decimals, or 0.00 if empty or zero. */
export const formatCredits = (credits: number | string | null | undefined): string => {
  const n = typeof credits === 'string' ? Number.parseFloat(credits) : credits;
  if (n === null || n === undefined || !Number.isFinite(n) || n === 0) return '0.00';
  return n.toFixed(2);
};
