import type { Id } from '../schema.ts';

/** One Idempotency-Key per user: claimed while its first request runs, then holding that request's response. */
export interface IdempotencyKeysTable {
  id: Id;
  user_id: number;
  key: string;
  /** The route the key was first used on ("POST /hooks/generate-characters"). */
  scope: string;
  /** sha256 of the scope and the request's parameters: the same key with another request is a 409. */
  fingerprint: string;
  state: 'pending' | 'done';
  response_status: number | null;
  /** JSON of the first response, replayed as is. */
  response_body: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
