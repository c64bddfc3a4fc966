import { sql, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { DialectName, Executor } from '../database.ts';
import type { Database } from '../schema.ts';
import type { JobsTable } from '../tables/jobs.ts';

export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;

/** Updates the row only while `owner` holds its lease on a running job; false when it does not (lost or ended). */
async function updateWhileLeased(
  db: Executor,
  id: number,
  owner: string,
  fields: Updateable<JobsTable>,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set(fields)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'in_progress')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** What taking a row does: in progress under this runner's lease, one more attempt counted. */
function claimPatch(eb: ExpressionBuilder<Database, 'jobs'>, a: ClaimArgs) {
  return {
    status: 'in_progress' as const,
    lease_owner: a.owner,
    lease_expires_at: a.leaseUntil,
    attempts: eb('attempts', '+', 1),
    started_at: eb.fn.coalesce('started_at', eb.val(a.now)),
    updated_at: a.now,
  };
}

/** A row a runner may take: queued and due, or running under a lease that has run out (its runner died). */
function claimable(eb: ExpressionBuilder<Database, 'jobs'>, at: string) {
  return eb.or([
    eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', at)]),
    eb.and([eb('status', '=', 'in_progress'), eb('lease_expires_at', '<', at)]),
  ]);
}

export interface ClaimArgs {
  owner: string;
  now: string;
  leaseUntil: string;
  /**
   * Which job names this claim may take (a runner lane): `names` only, or (`except`) any name but these, so a
   * row whose name no definition knows still reaches a runner and fails for good.
   */
  lane?: { names: readonly string[]; except: boolean };
}

/** The lane's filter on jobs.name (none without a lane). */
function inLane(eb: ExpressionBuilder<Database, 'jobs'>, lane: ClaimArgs['lane']) {
  const all = sql<SqlBool>`1 = 1`;
  if (!lane) return all;
  if (lane.names.length === 0) return lane.except ? all : sql<SqlBool>`1 = 0`;
  return eb('name', lane.except ? 'not in' : 'in', [...lane.names]);
}

/**
 * Every write a runner makes is conditional on still holding the lease (`lease_owner = owner`), so a runner
 * that lost its lease, or whose job was deleted, changes nothing.
 */
export const jobsRepository = {
  async insert(db: Executor, row: NewJobRow): Promise<number> {
    const r = await db.insertInto('jobs').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  },

  findById(db: Executor, id: number): Promise<JobRow | undefined> {
    return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /**
   * Every job created since `since` that called a provider (its cost is set), with its owner, status and the
   * credits its hold captured (0 when released or still held).
   */
  costedSince(
    db: Executor,
    since: string,
  ): Promise<Array<{ user_id: number; status: string; cost: string | null; captured: number | null }>> {
    return db
      .selectFrom('jobs')
      .leftJoin('credit_holds', 'credit_holds.id', 'jobs.hold_id')
      .select((eb) => [
        'jobs.user_id',
        'jobs.status',
        'jobs.cost',
        eb
          .case()
          .when('credit_holds.state', '=', 'captured')
          .then(eb.ref('credit_holds.amount'))
          .else(0)
          .end()
          .as('captured'),
      ])
      .where('jobs.cost', 'is not', null)
      .where('jobs.created_at', '>=', since)
      .execute();
  },

  /** The packs' jobs of one kind, whatever their status, oldest first. */
  ofPacks: (db: Executor, name: string, packIds: number[]) => jobsOf(db, name, 'hook_pack_id', packIds, 'all'),

  /** The projects' jobs of one kind, whatever their status, oldest first. */
  ofProjects: (db: Executor, name: string, projectIds: number[]) => jobsOf(db, name, 'project_id', projectIds, 'all'),

  /** The packs' jobs of one kind that are queued or running, oldest first. */
  unfinishedOfPacks: (db: Executor, name: string, packIds: number[]) =>
    jobsOf(db, name, 'hook_pack_id', packIds, 'unfinished'),

  /** The packs' jobs of one kind that have not failed (queued, running or done), oldest first. */
  unfailedOfPacks: (db: Executor, name: string, packIds: number[]) =>
    jobsOf(db, name, 'hook_pack_id', packIds, 'unfailed'),

  /** Whether a job of this name with exactly this stored payload is queued or running (one at a time). */
  async hasUnfinished(db: Executor, name: string, payload: string): Promise<boolean> {
    const row = await db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', name)
      .where('payload', '=', payload)
      .where('status', 'in', ['queued', 'in_progress'])
      .executeTakeFirst();
    return row !== undefined;
  },

  findOwned(db: Executor, userId: number, id: number): Promise<JobRow | undefined> {
    return db.selectFrom('jobs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  },

  async findManyByIds(db: Executor, userId: number, ids: number[]): Promise<JobRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('jobs').selectAll().where('user_id', '=', userId).where('id', 'in', ids).execute();
  },

  findByIdempotencyKey(db: Executor, userId: number, key: string): Promise<JobRow | undefined> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  },

  listForUser(db: Executor, userId: number, names: readonly string[]): Promise<JobRow[]> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', 'in', [...names])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /**
   * Takes the next due job. On PostgreSQL the candidate row is locked with FOR UPDATE SKIP LOCKED so several
   * runners never pick the same row and never wait on each other; SQLite has a single writer, so the UPDATE is
   * atomic as it is. The claimable condition is repeated on the outer UPDATE so a row that changed in between
   * is not taken.
   */
  async claimNext(db: Executor, dialect: DialectName, a: ClaimArgs): Promise<JobRow | undefined> {
    return db
      .updateTable('jobs')
      .set((eb) => claimPatch(eb, a))
      .where('id', '=', (eb) => {
        const q = eb
          .selectFrom('jobs')
          .select('id')
          .where((w) => claimable(w, a.now))
          .where((w) => inLane(w, a.lane))
          .orderBy('run_after')
          .orderBy('id')
          .limit(1);
        return dialect === 'postgres' ? q.forUpdate().skipLocked() : q;
      })
      .where((eb) => claimable(eb, a.now))
      .returningAll()
      .executeTakeFirst();
  },

  /** Scale mode: the queue delivered this id; take it only if it is still claimable. */
  async claimById(db: Executor, id: number, a: ClaimArgs): Promise<JobRow | undefined> {
    return db
      .updateTable('jobs')
      .set((eb) => claimPatch(eb, a))
      .where('id', '=', id)
      .where((eb) => claimable(eb, a.now))
      .where((eb) => inLane(eb, a.lane))
      .returningAll()
      .executeTakeFirst();
  },

  /** Ids a queue may have lost: due queued rows and expired leases (scale mode sweeper). */
  async claimableIds(
    db: Executor,
    now: string,
    limit: number,
  ): Promise<Array<{ id: number; attempts: number; name: string }>> {
    return db
      .selectFrom('jobs')
      .select(['id', 'attempts', 'name'])
      .where((eb) => claimable(eb, now))
      .orderBy('run_after')
      .limit(limit)
      .execute();
  },

  /** The names of these jobs (scale mode: which lane's queue carries each id). */
  async namesOf(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('jobs')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  },

  extendLease(db: Executor, id: number, owner: string, leaseUntil: string): Promise<boolean> {
    return updateWhileLeased(db, id, owner, { lease_expires_at: leaseUntil });
  },

  /** Progress, log lines and other fields while the lease is held; false when it is not. */
  async updateLeased(
    db: Executor,
    id: number,
    owner: string,
    fields: Partial<Pick<JobRow, 'progress' | 'logs' | 'cost' | 'updated_at'>>,
  ): Promise<boolean> {
    return updateWhileLeased(db, id, owner, fields);
  },

  /** Ends a leased run: completed, failed, or back to queued (retry later / handed back on shutdown). */
  async finishLeased(
    db: Executor,
    id: number,
    owner: string,
    fields: Partial<
      Pick<
        JobRow,
        | 'status'
        | 'progress'
        | 'logs'
        | 'result'
        | 'video_key'
        | 'poster_key'
        | 'error'
        | 'run_after'
        | 'attempts'
        | 'updated_at'
        | 'finished_at'
      >
    >,
  ): Promise<boolean> {
    return updateWhileLeased(db, id, owner, { ...fields, lease_owner: null, lease_expires_at: null });
  },

  /** A deleted project's jobs keep their videos and name, and no longer point at it. */
  async detachProject(db: Executor, projectId: number): Promise<void> {
    await db.updateTable('jobs').set({ project_id: null }).where('project_id', '=', projectId).execute();
  },

  /** A project's jobs of these definitions that are waiting or running (not yet finished, failed or cancelled). */
  activeForProject(db: Executor, projectId: number, names: readonly string[]): Promise<JobRow[]> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('name', 'in', [...names])
      .where('status', 'in', ['queued', 'in_progress'])
      .execute();
  },

  /** A user's jobs of these definitions that are waiting or running, newest first. */
  activeForUser(db: Executor, userId: number, names: readonly string[]): Promise<JobRow[]> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', 'in', [...names])
      .where('status', 'in', ['queued', 'in_progress'])
      .orderBy('id', 'desc')
      .execute();
  },

  /** Of these ids, the ones whose job is running now (their work directories are in use). */
  async runningIds(db: Executor, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom('jobs')
      .select('id')
      .where('id', 'in', ids)
      .where('status', '=', 'in_progress')
      .execute();
    return new Set(rows.map((r) => r.id));
  },

  async deleteById(db: Executor, id: number): Promise<boolean> {
    const r = await db.deleteFrom('jobs').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  },

  batchJobs(db: Executor, batchId: string): Promise<JobRow[]> {
    return db.selectFrom('jobs').selectAll().where('batch_id', '=', batchId).orderBy('id').execute();
  },

  /** Claims a batch's e-mail: only the one caller that flips notified_at on the batch's first job gets true. */
  async claimBatchNotification(db: Executor, firstJobId: number, now: string): Promise<boolean> {
    const r = await db
      .updateTable('jobs')
      .set({ notified_at: now })
      .where('id', '=', firstJobId)
      .where('notified_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
};

/** Jobs of one kind belonging to the given packs or projects, in one of three status sets, oldest first. */
function jobsOf(
  db: Executor,
  name: string,
  owner: 'hook_pack_id' | 'project_id',
  ids: number[],
  statuses: 'all' | 'unfinished' | 'unfailed',
): Promise<JobRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  let q = db.selectFrom('jobs').selectAll().where('name', '=', name).where(owner, 'in', ids);
  if (statuses === 'unfinished') q = q.where('status', 'in', ['queued', 'in_progress']);
  if (statuses === 'unfailed') q = q.where('status', '!=', 'failed');
  return q.orderBy('id').execute();
}
