/** Where a job's outputs live: deterministic per job (a retry overwrites) and unguessable (capability URLs). */
export const jobFilePrefix = (row: { user_id: number; id: number; file_token: string }): string =>
  `users/${row.user_id}/jobs/${row.id}-${row.file_token}`;
