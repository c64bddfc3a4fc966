import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from './helpers/database.ts';

const CHILD = fileURLToPath(new URL('./helpers/migrate-child.ts', import.meta.url));
// Inside the repository, so the bundle's bare imports (pg, kysely…) resolve from node_modules.
const OUT_DIR = fileURLToPath(new URL('../../../node_modules/.cache/hookreel-migrate-race/', import.meta.url));
const BUNDLE = path.join(OUT_DIR, `migrate-${process.pid}.mjs`);

// The real migrate() bundled once into plain JavaScript: a process then starts in a fraction of tsx's time,
// which keeps 100 process starts affordable. Kysely and pg go into the bundle too: one file loads in half the
// time of Kysely's hundreds of modules (about 0.2 s of CPU against 0.4 s a process). The native SQLite binding
// cannot be bundled; pg's optional native driver is not installed.
beforeAll(async () => {
  await mkdir(OUT_DIR, { recursive: true });
  await build({
    entryPoints: [CHILD],
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['better-sqlite3', 'pg-native'],
    // pg is CommonJS: its require() calls of node built-ins need a require in the ES module.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outfile: BUNDLE,
    logLevel: 'silent',
  });
});
afterAll(() => rm(BUNDLE, { force: true }));

/** Runs one migrate-only process; resolves with its exit code and what it wrote to stderr. */
function runMigrateProcess(url: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BUNDLE], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

// Scale mode starts API and worker processes together, and each migrates at start (docs/operations.md).
describe('migrations started by several processes at once (PostgreSQL)', () => {
  it('5 processes on an empty database all succeed, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const db = await createPgDatabase();
      try {
        const results = await Promise.all(Array.from({ length: 5 }, () => runMigrateProcess(db.url)));
        expect(
          results.map((r) => (r.code === 0 ? 'ok' : r.stderr.trim())),
          `round ${round}`,
        ).toEqual(Array(5).fill('ok'));
      } finally {
        await db.drop();
      }
    }
  }, 180_000);
});
