import type { AlterTableBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was then, not the current Database type
export type AnyDb = Kysely<any>;

export interface Migration {
  name: string;
  up(db: AnyDb, dialect: DialectName): Promise<void>;
}

/** An auto-increment integer primary key in either dialect. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

type AddColumn = Parameters<AlterTableBuilder['addColumn']>;

/**
 * Adds `columns` to `table` in the order written, one ALTER TABLE each (SQLite adds one column per statement): each
 * column is its data type, or its data type and the builder callback Kysely's addColumn takes.
 */
export async function addColumns(
  db: AnyDb,
  table: string,
  columns: Record<string, AddColumn[1] | [AddColumn[1], AddColumn[2]]>,
): Promise<void> {
  for (const [name, column] of Object.entries(columns)) {
    const [type, build] = Array.isArray(column) ? column : [column];
    await db.schema.alterTable(table).addColumn(name, type, build).execute();
  }
}
