/** Where a job's outputs live: deterministic per job (a retry overwrites) and unguessable (capability URLs). */
export const jobFilePrefix = (row: { user_id: number; id: number; file_token: string }): string =>
  `users/${row.user_id}/jobs/${row.id}-${row.file_token}`;

/**
 * Where a job keeps what an attempt paid a provider for (a Realistic voice, an edited still), so a retry reuses it
 * instead of buying it again. Not served to anyone; removed once the job is finished for good (completed, given up
 * or deleted), when no retry can need it.
 */
export const jobPaidPrefix = (row: { user_id: number; id: number }): string =>
  `users/${row.user_id}/paid/job-${row.id}`;
