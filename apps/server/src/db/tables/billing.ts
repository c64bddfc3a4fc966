import type { Id } from '../schema.ts';

/** Server-side secrets that must be the same in every process (e.g. the trial address-hash salt). */
export interface AppSecretsTable {
  name: string;
  value: string;
}

/** One row per e-mail address that ever received the free trial: an HMAC of the address, never the address. */
export interface TrialClaimsTable {
  email_hash: string;
  created_at: string;
}

/** The payment provider's customer of a user (Stripe `cus_…`). */
export interface BillingCustomersTable {
  user_id: number;
  customer_id: string;
  created_at: string;
}

export interface SubscriptionsTable {
  id: Id;
  user_id: number;
  provider: 'demo' | 'stripe';
  /** Stripe `sub_…`; null for demo subscriptions. */
  external_id: string | null;
  plan: 'starter' | 'growth' | 'agency';
  interval: 'month' | 'year';
  status: 'active' | 'past_due' | 'canceled';
  cancel_at_period_end: number;
  current_period_end: string | null;
  created_at: string;
  updated_at: string;
}

/** Webhook events already applied: each event id changes credits at most once. */
export interface BillingEventsTable {
  event_id: string;
  type: string;
  created_at: string;
}

export interface RefundRequestsTable {
  id: Id;
  user_id: number;
  job_id: number;
  project_name: string;
  /** Hundredths captured for the job, returned on approval. */
  amount: number;
  reason: string;
  state: 'pending' | 'approved' | 'declined';
  decision_note: string | null;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
}

export interface BillingTables {
  app_secrets: AppSecretsTable;
  trial_claims: TrialClaimsTable;
  billing_customers: BillingCustomersTable;
  subscriptions: SubscriptionsTable;
  billing_events: BillingEventsTable;
  refund_requests: RefundRequestsTable;
}
