import { sql } from 'kysely';
import type { Db } from './database.ts';
import { now } from './database.ts';
import type { AnyDb } from './migrations/helpers.ts';
import { MIGRATIONS } from './migrations/index.ts';

/**
 * Applies pending migrations, each in its own transaction. Several processes may start at once in scale mode,
 * so on PostgreSQL an advisory lock makes them take turns — taken before anything else, because even
 * `create table if not exists` races on PostgreSQL's catalogue (two sessions both see no table, and the second
 * fails on pg_type's unique index).
 */
export async function migrate(db: Db): Promise<string[]> {
  const k = db.kysely as unknown as AnyDb;
  const applied: string[] = [];
  await k.connection().execute(async (conn) => {
    if (db.dialect === 'postgres') await sql`select pg_advisory_lock(72817)`.execute(conn);
    try {
      await conn.schema
        .createTable('schema_migrations')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'text', (c) => c.notNull())
        .execute();
      const done = new Set(
        (await conn.selectFrom('schema_migrations').select('name').execute()).map((r: { name: string }) => r.name),
      );
      for (const m of MIGRATIONS) {
        if (done.has(m.name)) continue;
        await conn.transaction().execute(async (trx) => {
          await m.up(trx, db.dialect);
          await trx.insertInto('schema_migrations').values({ name: m.name, applied_at: now() }).execute();
        });
        applied.push(m.name);
      }
    } finally {
      if (db.dialect === 'postgres') await sql`select pg_advisory_unlock(72817)`.execute(conn);
    }
  });
  return applied;
}
