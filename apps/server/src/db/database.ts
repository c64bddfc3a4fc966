import { closeSync, openSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

/** What every repository function takes: the database or an open transaction on it. */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  destroy(): Promise<void>;
}

// PostgreSQL returns BIGINT/NUMERIC as strings by default; our ids and sums fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

/** Opens the database named by a URL: `sqlite://<file>` (or `:memory:`) or `postgres://…`. */
export function openDatabase(url: string, opts: { poolSize?: number } = {}): Db {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // Bounded waits, so a database that is away answers 503 instead of hanging requests: 5 s to connect (or to
    // get a pooled client), 30 s for any query's reply (a silent network partition never resets the socket),
    // and TCP keep-alive so the OS notices dead peers. `?query_timeout=` in the URL overrides the 30 s.
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      query_timeout: 30_000,
      keepAlive: true,
    });
    // An idle client's socket error must not crash the process; the pool replaces the client.
    pool.on('error', () => undefined);
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', destroy: () => kysely.destroy() };
  }
  const file = url.replace(/^sqlite:\/\//, '');
  // Created 0600 before SQLite opens it (SQLite would use the umask, often world-readable); its -wal and -shm
  // files take the database file's mode.
  if (file !== ':memory:' && file !== '') closeSync(openSync(file, 'a', 0o600));
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kysely, dialect: 'sqlite', destroy: () => kysely.destroy() };
}

/** ISO timestamps stored as text keep both dialects identical and sortable. */
export const now = (): string => new Date().toISOString();

/** The first row a query finds, or null: repositories answer null for "none", never undefined. */
export const firstOrNull = async <T>(query: { executeTakeFirst(): Promise<T | undefined> }): Promise<T | null> =>
  (await query.executeTakeFirst()) ?? null;

/** A unique constraint refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
