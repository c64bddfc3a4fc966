import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';

/**
 * Removes the work directories (`job-<id>-<suffix>` under DATA_DIR/work) that a killed process left behind: a
 * run that ends removes its own, so any whose job is not running now is an orphan. A job running in another
 * process that shares the directory keeps its own. Returns the names removed.
 */
export async function sweepOrphanWorkDirs(ctx: Pick<AppContext, 'db' | 'config'>): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(ctx.config.workDir)).filter((n) => /^job-\d+-/.test(n));
  } catch {
    return []; // no work directory yet
  }
  const ids = [...new Set(names.map((n) => Number(/^job-(\d+)-/.exec(n)![1])))];
  const running = await jobsRepository.runningIds(ctx.db.kysely, ids);
  const orphans = names.filter((n) => !running.has(Number(/^job-(\d+)-/.exec(n)![1])));
  for (const name of orphans) {
    await rm(path.join(ctx.config.workDir, name), { recursive: true, force: true }).catch(() => undefined);
  }
  return orphans;
}
