import type { CreateTableBuilder, Kysely } from 'kysely';
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
