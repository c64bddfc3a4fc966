import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import { jobsRepository } from '../db/repositories/jobs.ts';
import { usersRepository } from '../db/repositories/users.ts';
import { videosReadyEmail } from './templates.ts';

/**
 * Called after a job of a batch reaches a terminal state (after its transaction commits, so the last finisher
 * always sees every sibling finished). When the whole batch is done and at least one video completed, and the
 * user wants notifications, one e-mail goes out: claiming notified_at on the batch's first row is a single
 * conditional UPDATE, so concurrent finishers send it at most once.
 */
export async function notifyBatchIfDone(ctx: AppContext, batchId: string): Promise<boolean> {
  const db = ctx.db.kysely;
  const jobs = await jobsRepository.batchJobs(db, batchId);
  const first = jobs[0];
  if (!first || first.notified_at) return false;
  if (jobs.some((j) => j.status !== 'completed' && j.status !== 'failed')) return false;
  const completed = jobs.filter((j) => j.status === 'completed');
  if (completed.length === 0) return false;
  const user = await usersRepository.findById(db, first.user_id);
  if (!user || !user.notify) return false;
  if (!(await jobsRepository.claimBatchNotification(db, first.id, now()))) return false;
  const mail = videosReadyEmail({
    publicUrl: ctx.config.publicUrl,
    videos: completed.map((j) => ({ id: j.id, name: j.project_name })),
    failedCount: jobs.length - completed.length,
  });
  await ctx.mailer.send({ to: user.email, ...mail });
  return true;
}
