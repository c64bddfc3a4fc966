import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * For tests: a fresh folder under the system's temp folder for the describe block (or file) this is called in,
 * made before its tests and removed after them. The tests read `.path`.
 */
export function tempDirForTests(prefix: string): { readonly path: string } {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return {
    get path() {
      return dir;
    },
  };
}
