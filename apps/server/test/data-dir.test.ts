import { stat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { closeContext, createContext } from '../src/context.ts';
import { createPgDatabase, TEST_DIALECTS } from './helpers/database.ts';

/** What the server keeps on disk is for its own user only: DATA_DIR 0700, the SQLite files 0600. */
const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

describe.each(TEST_DIALECTS)('DATA_DIR permissions (%s)', (dialect) => {
  let parent: string;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'hookreel-perms-'));
  });
  afterAll(async () => {
    await drop?.();
    await rm(parent, { recursive: true, force: true });
  });

  it('creates DATA_DIR 0700 and the database files 0600, whatever the umask allows', async () => {
    // A permissive umask, as on many servers, must not leak into what we create.
    const umask = process.umask(0o002);
    try {
      const dataDir = path.join(parent, 'nested', 'data');
      const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
      drop = pgDb?.drop;
      const config = loadConfig({
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      });
      const ctx = await createContext(config);
      try {
        expect((await modeOf(dataDir)).toString(8)).toBe('700');
        expect((await modeOf(path.join(dataDir, '.jwt-secret'))).toString(8)).toBe('600');
        if (dialect === 'sqlite') {
          expect((await modeOf(path.join(dataDir, 'hookreel.db'))).toString(8)).toBe('600');
          expect((await modeOf(path.join(dataDir, 'hookreel.db-wal'))).toString(8)).toBe('600');
        }
      } finally {
        await closeContext(ctx);
      }
    } finally {
      process.umask(umask);
    }
  });
});
