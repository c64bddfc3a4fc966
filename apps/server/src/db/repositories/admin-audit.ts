import type { Selectable } from 'kysely';
import { now, type Executor } from '../database.ts';
import type { AdminAuditTable } from '../tables/integrations.ts';

export type AdminAuditRow = Selectable<AdminAuditTable>;

/** The log of administrator actions (decision 175): written once, never changed. */
export const adminAuditRepository = {
  async append(
    db: Executor,
    entry: {
      userId: number;
      userEmail: string;
      credential: 'session' | 'api_key' | 'cli';
      apiKeyId: number | null;
      action: string;
      target: string | null;
      detail: string | null;
    },
  ): Promise<void> {
    await db
      .insertInto('admin_audit')
      .values({
        user_id: entry.userId,
        user_email: entry.userEmail,
        credential: entry.credential,
        api_key_id: entry.apiKeyId,
        action: entry.action,
        target: entry.target,
        detail: entry.detail,
        created_at: now(),
      })
      .execute();
  },

  /** Newest first. */
  recent(db: Executor, limit: number): Promise<AdminAuditRow[]> {
    return db.selectFrom('admin_audit').selectAll().orderBy('id', 'desc').limit(limit).execute();
  },
};
