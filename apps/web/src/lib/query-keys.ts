/**
 * Query keys shared across features, so that one feature's mutation can refresh another's cached reads
 * (a queued job shows up in the jobs list, a deleted project leaves the projects list…).
 */
export const queryKeys = {
  jobs: {
    all: ['jobs'] as const,
    list: () => ['jobs', 'list'] as const,
    detail: (id: number) => ['jobs', 'detail', id] as const,
    report: (url: string) => ['jobs', 'report', url] as const,
  },
  projects: {
    all: ['projects'] as const,
    list: () => ['projects', 'list'] as const,
    detail: (id: number) => ['projects', 'detail', id] as const,
  },
  avatars: {
    all: ['avatars'] as const,
    list: (params: { projectId?: number; sizes?: readonly string[]; description?: string } = {}) =>
      [
        'avatars',
        'list',
        params.projectId ?? null,
        params.sizes ? [...params.sizes].sort().join(',') : null,
        params.description ?? null,
      ] as const,
    talkingPreview: (id: number) => ['avatars', 'talking-preview', id] as const,
  },
  actorLooks: {
    detail: (avatarId: number) => ['avatars', 'look', avatarId] as const,
  },
  creators: {
    all: ['creators'] as const,
    list: () => ['creators', 'list'] as const,
  },
  merge: {
    status: (projectId: number) => ['merge', 'status', projectId] as const,
  },
  credits: {
    all: ['credits'] as const,
    ledger: () => ['credits', 'ledger'] as const,
    billing: () => ['credits', 'billing'] as const,
    refunds: () => ['credits', 'refunds'] as const,
    adminRefunds: () => ['credits', 'admin-refunds'] as const,
  },
  capabilities: () => ['capabilities'] as const,
  voices: () => ['voices'] as const,
  prices: () => ['prices'] as const,
  integrations: {
    apiKeys: () => ['integrations', 'api-keys'] as const,
    webhooks: () => ['integrations', 'webhooks'] as const,
    deliveries: () => ['integrations', 'deliveries'] as const,
  },
  brandKit: () => ['brand-kit'] as const,
} as const;
