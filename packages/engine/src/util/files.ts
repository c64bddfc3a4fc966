import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A sibling temp name that keeps the extension (ffmpeg and sharp pick formats from it). */
export function tempSibling(finalPath: string): string {
  const dir = path.dirname(finalPath);
  const base = path.basename(finalPath);
  const ext = path.extname(base);
  return path.join(
    dir,
    `.${base.slice(0, base.length - ext.length)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp${ext}`,
  );
}

/** Writes to a temp file then renames, so readers never see a half-written file and re-runs are idempotent. */
export async function writeFileAtomic(finalPath: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = tempSibling(finalPath);
  try {
    await writeFile(tmp, data);
    await rename(tmp, finalPath);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Runs `produce(tmpPath)` and renames the result into place; the temp file is removed on failure. */
export async function produceAtomic<T>(finalPath: string, produce: (tmpPath: string) => Promise<T>): Promise<T> {
  await mkdir(path.dirname(finalPath), { recursive: true });
  const tmp = tempSibling(finalPath);
  try {
    const result = await produce(tmp);
    await rename(tmp, finalPath);
    return result;
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
