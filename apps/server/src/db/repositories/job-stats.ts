import type { Executor } from '../database.ts';

/** Read-only figures over the jobs and avatars tables for estimates and the public stats (services/jobs/estimates.ts). */
export const jobStatsRepository = {
  /** Start and finish (and payload: its quality) of the most recent completed jobs of these kinds, newest first. */
  recentRuns(db: Executor, names: readonly string[], limit: number) {
    return db
      .selectFrom('jobs')
      .select(['started_at', 'finished_at', 'payload'])
      .where('name', 'in', [...names])
      .where('status', '=', 'completed')
      .where('started_at', 'is not', null)
      .where('finished_at', 'is not', null)
      .orderBy('finished_at', 'desc')
      .limit(limit)
      .execute();
  },

  /** Every queued or running job of these kinds, in queue order (oldest first), across all users. */
  active(db: Executor, names: readonly string[]) {
    return db
      .selectFrom('jobs')
      .select(['id', 'status'])
      .where('name', 'in', [...names])
      .where('status', 'in', ['queued', 'in_progress'])
      .orderBy('id', 'asc')
      .execute();
  },

  /** How many actors the shared library offers. */
  async libraryActors(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('avatars')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('owner_user_id', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};
