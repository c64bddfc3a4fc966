/**
 * The billing area: credits (holds, grants, the ledger), plans and Stripe, refunds, admin adjustments and what
 * providers cost per plan. Other areas import it only through this file.
 */
export { adjustCredits } from './admin-credits.ts';
export { billingState, checkout, handleWebhook, portal } from './billing.ts';
export {
  assertCoversRequest,
  captureHold,
  fromHundredths,
  grantTrialOnce,
  ledgerPage,
  priceList,
  releaseHold,
  reserveCredits,
  toHundredths,
} from './credits.ts';
export { costInUsd, providerPrices } from './provider-prices.ts';
export { providerUsageByPlan } from './provider-usage.ts';
export { decideRefund, listOwnRefunds, listRefundsForAdmin, requestRefund } from './refunds.ts';
