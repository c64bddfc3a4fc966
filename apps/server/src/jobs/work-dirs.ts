import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';

/** An upload's check folder older than this belongs to a process that died mid-check (decision 181). */
export const UPLOAD_DIR_MAX_AGE_MS = 10 * 60_000;

const JOB_DIR = /^job-(\d+)-/;
const UPLOAD_DIR = /^upload-[0-9a-f-]{36}$/;

async function names(workDir: string): Promise<string[]> {
  try {
    return await readdir(workDir);
  } catch {
    return []; // no work directory yet
  }
}

const remove = (dir: string) => rm(dir, { recursive: true, force: true }).catch(() => undefined);

/**
 * Removes the work directories (`job-<id>-<suffix>` under DATA_DIR/work) that a killed process left behind: a
 * run that ends removes its own, so any whose job is not running now is an orphan. A job running in another
 * process that shares the directory keeps its own. Upload check folders (`upload-<uuid>`) older than ten
 * minutes go too. Returns the names removed.
 */
export async function sweepOrphanWorkDirs(
  ctx: Pick<AppContext, 'db' | 'config'>,
  nowMs: number = Date.now(),
): Promise<string[]> {
  const all = await names(ctx.config.workDir);
  const jobDirs = all.filter((n) => JOB_DIR.test(n));
  const ids = [...new Set(jobDirs.map((n) => Number(JOB_DIR.exec(n)![1])))];
  const running = ids.length ? await jobsRepository.runningIds(ctx.db.kysely, ids) : new Set<number>();
  const orphans = jobDirs.filter((n) => !running.has(Number(JOB_DIR.exec(n)![1])));
  for (const name of orphans) await remove(path.join(ctx.config.workDir, name));
  return [...orphans, ...(await sweepStaleUploadDirs(ctx, nowMs, all))];
}

/**
 * Removes upload check folders (`upload-<uuid>`) older than ten minutes: a process killed mid-check left them.
 * API processes that run no jobs sweep these too, since uploads are checked there. Returns the names removed.
 */
export async function sweepStaleUploadDirs(
  ctx: Pick<AppContext, 'config'>,
  nowMs: number = Date.now(),
  listed?: string[],
): Promise<string[]> {
  const stale: string[] = [];
  for (const name of (listed ?? (await names(ctx.config.workDir))).filter((n) => UPLOAD_DIR.test(n))) {
    const info = await stat(path.join(ctx.config.workDir, name)).catch(() => null);
    if (info && nowMs - info.mtimeMs > UPLOAD_DIR_MAX_AGE_MS) stale.push(name);
  }
  for (const name of stale) await remove(path.join(ctx.config.workDir, name));
  return stale;
}

/**
 * Removes every work folder of job `id`: called by the runner that has just claimed it, when no earlier attempt
 * can still be alive (its lease ran out, or it handed the job back). Returns the names removed.
 */
export async function removeJobWorkDirs(ctx: Pick<AppContext, 'config'>, id: number): Promise<string[]> {
  const mine = (await names(ctx.config.workDir)).filter((n) => n.startsWith(`job-${id}-`));
  for (const name of mine) await remove(path.join(ctx.config.workDir, name));
  return mine;
}

/**
 * Runs `work` in a fresh private folder `DATA_DIR/work/upload-<uuid>` (0700) that is removed afterwards, whatever
 * the outcome; a process killed meanwhile leaves it to the sweep above.
 */
export async function withUploadDir<T>(ctx: Pick<AppContext, 'config'>, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(ctx.config.workDir, `upload-${randomUUID()}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    return await work(dir);
  } finally {
    await remove(dir);
  }
}
