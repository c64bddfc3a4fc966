import type { Generated } from 'kysely';
import type { Bool, Id } from '../schema.ts';

export interface UsersTable {
  id: Id;
  email: string;
  password_hash: string | null;
  notify: Bool;
  /** Credit balance in hundredths, kept in step with the ledger inside the same transaction. */
  credits_available: number;
  credits_held: number;
  /** When the person proved they read mail at `email`; null until then (no trial, no spending). */
  email_verified_at: string | null;
  /** Access tokens issued before this are void (their refresh tokens are deleted at the same time). */
  sessions_revoked_at: string | null;
  /** Part of credits_available that came from a subscription allowance (capped at renewal; spent first). */
  credits_plan: Generated<number>;
  /** The mailbox `email` delivers to (canonicalEmail), for rules that count mailboxes such as the trial. */
  email_canonical: string | null;
  created_at: string;
  updated_at: string;
}

export interface RefreshTokensTable {
  id: Id;
  user_id: number;
  family_id: string;
  token_hash: string;
  /** Set when the token is exchanged; presenting it again revokes the family. */
  used_at: string | null;
  revoked_at: string | null;
  expires_at: string;
  created_at: string;
}

export interface IdentitiesTable {
  id: Id;
  user_id: number;
  provider: string;
  subject: string;
  created_at: string;
}

export type OneTimePurpose = 'sign_in' | 'verify_email' | 'exchange';

export interface OneTimeCodesTable {
  id: Id;
  purpose: OneTimePurpose;
  secret_hash: string;
  code_hash: string | null;
  email: string | null;
  user_id: number | null;
  context: string | null;
  attempts: Generated<number>;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface AuthTables {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  identities: IdentitiesTable;
  one_time_codes: OneTimeCodesTable;
}
