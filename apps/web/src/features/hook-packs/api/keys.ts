/** Query keys of the hook-pack feature. */
export const hookPackKeys = {
  all: ['hook-packs'] as const,
  list: () => ['hook-packs', 'list'] as const,
  detail: (id: number) => ['hook-packs', 'detail', id] as const,
  characters: (id: number) => ['hook-packs', 'characters', id] as const,
  jobs: (id: number) => ['hook-packs', 'jobs', id] as const,
  job: (jobId: number) => ['hook-packs', 'job', jobId] as const,
  hookLines: (id: number, hook: string) => ['hook-packs', 'hook-lines', id, hook] as const,
} as const;
