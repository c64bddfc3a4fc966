import type { Generated } from 'kysely';
import type { AuthTables } from './tables/auth.ts';
import type { JobTables } from './tables/jobs.ts';
import type { ProjectTables } from './tables/projects.ts';
import type { HookPackTables } from './tables/hook-packs.ts';
import type { IdempotencyTables } from './tables/idempotency.ts';
import type { BillingTables } from './tables/billing.ts';
import type { IntegrationTables } from './tables/integrations.ts';
import type { BatchTables } from './tables/batches.ts';
import type { BrandKitTables } from './tables/brand-kits.ts';

export type Id = Generated<number>;
/** Booleans are stored as 0/1 integers so both dialects read back the same values. */
export type Bool = number;

/** The whole database: each area declares its own tables in db/tables/<area>.ts. */
export interface Database
  extends
    AuthTables,
    JobTables,
    ProjectTables,
    HookPackTables,
    IdempotencyTables,
    BillingTables,
    IntegrationTables,
    BatchTables,
    BrandKitTables {}
