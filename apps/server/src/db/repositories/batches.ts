import type { Insertable, Selectable } from 'kysely';
import { firstOrNull, type Executor } from '../database.ts';
import type { BatchesTable, BatchRowsTable } from '../tables/batches.ts';

export type BatchRecord = Selectable<BatchesTable>;
export type BatchRowRecord = Selectable<BatchRowsTable>;
export type NewBatchRow = Omit<Insertable<BatchRowsTable>, 'batch_id' | 'id'>;

export const batchesRepository = {
  async insert(db: Executor, batch: Omit<Insertable<BatchesTable>, 'id'>, rows: NewBatchRow[]): Promise<BatchRecord> {
    const created = await db.insertInto('batches').values(batch).returningAll().executeTakeFirstOrThrow();
    if (rows.length > 0) {
      await db
        .insertInto('batch_rows')
        .values(rows.map((r) => ({ ...r, batch_id: created.id })))
        .execute();
    }
    return created;
  },

  /** The batch if it belongs to the user; null otherwise (answered 404 either way). */
  async findOwned(db: Executor, userId: number, id: number): Promise<BatchRecord | null> {
    return firstOrNull(db.selectFrom('batches').selectAll().where('id', '=', id).where('user_id', '=', userId));
  },

  async listByUser(db: Executor, userId: number, limit = 50): Promise<BatchRecord[]> {
    return db
      .selectFrom('batches')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async rowsOf(db: Executor, batchIds: number[]): Promise<BatchRowRecord[]> {
    if (batchIds.length === 0) return [];
    return db
      .selectFrom('batch_rows')
      .selectAll()
      .where('batch_id', 'in', batchIds)
      .orderBy('batch_id')
      .orderBy('line')
      .execute();
  },

  /**
   * Marks a draft batch queued; false when it was not a draft any more (a second request got there first). On
   * PostgreSQL the conditional update takes the row lock, so two confirms cannot both pass.
   */
  async markQueued(db: Executor, id: number, at: string): Promise<boolean> {
    const res = await db
      .updateTable('batches')
      .set({ status: 'queued', queued_at: at })
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async setRowQueued(db: Executor, rowId: number, projectId: number, jobId: number): Promise<void> {
    await db.updateTable('batch_rows').set({ project_id: projectId, job_id: jobId }).where('id', '=', rowId).execute();
  },
};
