import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Batches from a spreadsheet (decision 138): the batch and its checked rows. A row keeps its project and job once
 * queued; deleting the project or the job leaves the row (its ids become dangling and read as "gone").
 */
export const csvBatchesMigration: Migration = {
  name: '020-csv-batches',
  async up(db, dialect) {
    await withId(db.schema.createTable('batches'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('errors', 'text', (c) => c.notNull())
      .addColumn('job_batch_id', 'text', (c) => c.notNull())
      .addColumn('file_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('queued_at', 'text')
      .execute();
    await db.schema.createIndex('batches_user').on('batches').columns(['user_id', 'id']).execute();

    await withId(db.schema.createTable('batch_rows'), dialect)
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('batches.id').onDelete('cascade'))
      .addColumn('line', 'integer', (c) => c.notNull())
      .addColumn('cells', 'text', (c) => c.notNull())
      .addColumn('batch_values', 'text', (c) => c.notNull())
      .addColumn('errors', 'text', (c) => c.notNull())
      .addColumn('product_key', 'text')
      .addColumn('product_width', 'integer')
      .addColumn('product_height', 'integer')
      .addColumn('project_id', 'integer')
      .addColumn('job_id', 'integer')
      .execute();
    await db.schema.createIndex('batch_rows_batch').on('batch_rows').columns(['batch_id', 'line']).execute();
  },
};
