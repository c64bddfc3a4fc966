import type { Id } from '../schema.ts';

export interface JobsTable {
  id: Id;
  user_id: number;
  /** The job definition's name (job-definitions.ts). */
  name: string;
  project_id: number | null;
  hook_pack_id: number | null;
  variant_index: number | null;
  /** Display name shown on job cards (spec: project_name). */
  project_name: string;
  status: string;
  progress: number;
  /** JSON: ids and options only; handlers reload everything else. */
  payload: string;
  /** JSON array of log lines a person understands. */
  logs: string;
  result: string | null;
  video_key: string | null;
  poster_key: string | null;
  error: string | null;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  run_after: string;
  hold_id: number | null;
  idempotency_key: string | null;
  /** Random per-job part of the output prefix, so file URLs (capability links) cannot be guessed. */
  file_token: string;
  /** Jobs created by one request share a batch; one "videos ready" e-mail goes out per batch. */
  batch_id: string | null;
  /** Set on the batch's first job when its e-mail has been claimed (at most one per batch). */
  notified_at: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A reservation of credits for one job or operation; it resolves exactly once. */
export interface CreditHoldsTable {
  id: Id;
  user_id: number;
  amount: number;
  state: 'held' | 'captured' | 'released';
  operation: string;
  created_at: string;
  resolved_at: string | null;
}

/** Append-only ledger: every movement of credits, in hundredths. */
export interface CreditEntriesTable {
  id: Id;
  user_id: number;
  kind: 'grant' | 'hold' | 'capture' | 'release';
  amount: number;
  hold_id: number | null;
  reason: string;
  created_at: string;
}

export interface JobTables {
  jobs: JobsTable;
  credit_holds: CreditHoldsTable;
  credit_entries: CreditEntriesTable;
}
