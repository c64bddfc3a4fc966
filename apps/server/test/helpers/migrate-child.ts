import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * A process that only runs migrations against DATABASE_URL and exits: 0 when they applied (or were already
 * applied), 1 with the error on stderr otherwise. Started several at once by migrate-race.test.ts.
 */
const db = openDatabase(process.env.DATABASE_URL ?? '', { poolSize: 1 });
try {
  await migrate(db);
  await db.destroy();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
  await db.destroy().catch(() => undefined);
}
