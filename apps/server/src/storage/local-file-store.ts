import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, contentTypeOf, type FileStore } from './file-store.ts';

/** Files under DATA_DIR/files; writes go to a temp name first so a reader never sees half a file. */
export function createLocalFileStore(root: string): FileStore {
  const resolve = (key: string) => {
    assertSafeKey(key);
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`unsafe storage key: ${key}`);
    return full;
  };
  const atomicWrite = async (full: string, write: (tmp: string) => Promise<void>) => {
    await mkdir(path.dirname(full), { recursive: true });
    const tmp = `${full}.${randomUUID()}.tmp`;
    try {
      await write(tmp);
      await rename(tmp, full);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  };
  return {
    async put(key, body) {
      const full = resolve(key);
      await atomicWrite(full, async (tmp) => {
        if (Buffer.isBuffer(body)) {
          const { writeFile } = await import('node:fs/promises');
          await writeFile(tmp, body);
        } else {
          await pipeline(body as Readable, createWriteStream(tmp));
        }
      });
    },
    async putFile(key, localPath) {
      const full = resolve(key);
      await atomicWrite(full, (tmp) => copyFile(localPath, tmp));
    },
    async get(key, range) {
      const full = resolve(key);
      try {
        const s = await stat(full);
        if (!s.isFile()) return null;
        return { body: createReadStream(full, range), size: s.size, contentType: contentTypeOf(key) };
      } catch {
        return null;
      }
    },
    async head(key) {
      try {
        const s = await stat(resolve(key));
        return s.isFile() ? { size: s.size, contentType: contentTypeOf(key) } : null;
      } catch {
        return null;
      }
    },
    async toLocalFile(key, localPath) {
      await mkdir(path.dirname(localPath), { recursive: true });
      await copyFile(resolve(key), localPath);
    },
    async exists(key) {
      try {
        return (await stat(resolve(key))).isFile();
      } catch {
        return false;
      }
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async deletePrefix(prefix) {
      const clean = prefix.replace(/\/+$/, '');
      await rm(resolve(clean), { recursive: true, force: true });
    },
  };
}
