import type { LedgerKind } from '@hookreel/contracts';
import type { Id } from '../schema.ts';

export interface JobsTable {
  id: Id;
  user_id: number;
  /** The job definition's name (job-definitions.ts). */
  name: string;
  project_id: number | null;
  hook_pack_id: number | null;
  variant_index: number | null;
  /** Display name shown on job cards (contracts Job.project_name). */
  project_name: string;
  /** The actor(s) in the video, as the UI and the pack manifest name them ('Character 2', 'Ava'). */
  actor_name: string | null;
  /** Which video of a pack this is ('Video #3'); null for a single project video. */
  variant_label: string | null;
  /** The hook line a pack video opens with. */
  hook_text: string | null;
  /** A pack video's matrix cell ('H2-A1-C3'). */
  variant_id: string | null;
  status: string;
  progress: number;
  /** JSON: ids and options only; handlers reload everything else. */
  payload: string;
  /** JSON array of log lines a person understands. */
  logs: string;
  result: string | null;
  /** JSON JobCost {images, characters, seconds, calls}: what providers billed, summed over attempts; null if none. */
  cost: string | null;
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
  kind: LedgerKind;
  /** Always positive; the kind says which way it moves the balance. */
  amount: number;
  hold_id: number | null;
  reason: string;
  created_at: string;
  /** Spendable balance (users.credits_available) right after this entry; null on rows older than 008. */
  balance_after: number | null;
  /** The job or pack the entry concerns when no hold links it (refunds). */
  job_id: number | null;
  hook_pack_id: number | null;
  /** External reference: payment event id, refund request id, administrator e-mail. */
  ref: string | null;
}

export interface JobTables {
  jobs: JobsTable;
  credit_holds: CreditHoldsTable;
  credit_entries: CreditEntriesTable;
}
