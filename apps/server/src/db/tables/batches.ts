import type { Id } from '../schema.ts';

/** A batch from a spreadsheet: checked rows first (draft), then queued together (decision 138). */
export interface BatchesTable {
  id: Id;
  user_id: number;
  name: string;
  /** 'draft' (previewed, nothing spent) or 'queued'. */
  status: string;
  /** JSON BatchCellError[]: problems of the whole file. */
  errors: string;
  /** Shared by the batch's jobs (jobs.batch_id): one "videos ready" e-mail for the whole batch. */
  job_batch_id: string;
  /** Unguessable part of the batch's file keys (products fetched or attached). */
  file_token: string;
  created_at: string;
  queued_at: string | null;
}

/** One line of the sheet: its cells as typed, the checked values, its errors, and once queued its project and job. */
export interface BatchRowsTable {
  id: Id;
  batch_id: number;
  line: number;
  /** JSON Record<column, string>: the cells as typed. */
  cells: string;
  /** JSON BatchRowValues. */
  batch_values: string;
  /** JSON BatchCellError[]; empty for a row that will be queued. */
  errors: string;
  /** The product image as stored (fetched or attached, cleaned like an upload). */
  product_key: string | null;
  product_width: number | null;
  product_height: number | null;
  project_id: number | null;
  job_id: number | null;
}

export interface BatchTables {
  batches: BatchesTable;
  batch_rows: BatchRowsTable;
}
