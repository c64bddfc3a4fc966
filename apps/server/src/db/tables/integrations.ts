import type { Generated } from 'kysely';
import type { Id } from '../schema.ts';

/** A personal API key: only a SHA-256 of the key is kept (it is random, so no slow hash is needed). */
export interface ApiKeysTable {
  id: Id;
  user_id: number;
  name: string;
  /** The key's first characters, shown to tell keys apart. */
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** 'user' (the owner's own data) or 'admin' (also administrator routes, made on purpose by an administrator). */
  scope: Generated<'user' | 'admin'>;
}

/** One administrator action: who, with which credential (a session or which key), what and on what. */
export interface AdminAuditTable {
  id: Id;
  /** 0 for the command line (`npm run credits`). */
  user_id: number;
  user_email: string;
  credential: 'session' | 'api_key' | 'cli';
  api_key_id: number | null;
  action: string;
  target: string | null;
  /** JSON with the action's inputs (amounts, reasons), or null. */
  detail: string | null;
  created_at: string;
}

export interface WebhookEndpointsTable {
  id: Id;
  user_id: number;
  url: string;
  /** The HMAC key deliveries are signed with; needed in clear to sign, so it cannot be hashed. */
  secret: string;
  created_at: string;
  /** Failed attempts in a row since the last delivered one; reaching the limit pauses the endpoint. */
  consecutive_failures: Generated<number>;
  /** When it was paused for failing (nothing is sent until its owner resumes it); null while active. */
  paused_at: string | null;
}

export interface WebhookDeliveriesTable {
  id: Id;
  endpoint_id: number;
  user_id: number;
  event_id: string;
  event_type: string;
  subject: string;
  /** The exact JSON body sent on every attempt. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

export interface IntegrationTables {
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  admin_audit: AdminAuditTable;
}
