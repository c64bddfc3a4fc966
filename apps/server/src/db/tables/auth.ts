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
  /** Part of credits_available that came from a subscription allowance (capped at renewal; spent first). */
  credits_plan: Generated<number>;
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

export interface AuthTables {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  identities: IdentitiesTable;
}
