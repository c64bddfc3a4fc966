import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { jobFilePrefix } from '../../src/jobs/files.ts';
import { grantCredits, ledgerBalances } from '../../src/services/billing/credits.ts';
import { verifyFromOutbox } from '../helpers/outbox.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { startCluster, type Cluster, type ClusterApi } from './cluster.ts';

/**
 * Crash evidence shared by `test/scale/worker-kills.test.ts` (≥20 kills) and `bench/crash.ts` (100 kills):
 * a scale-mode cluster (1 API, BullMQ workers, PostgreSQL, Redis, an S3 bucket) renders real videos while a
 * worker that holds a job's lease is SIGKILLed at a random moment, again and again, each time replaced by a new
 * worker. Afterwards it reads back every job, its credit entries, the bucket and every user's ledger.
 */

export interface KillRunOptions {
  /** How many SIGKILLs of a rendering worker. */
  kills: number;
  /** Worker processes (default 3), each WORKER_CONCURRENCY 1. */
  workers?: number;
  /** Accounts the jobs are spread over (default 3). */
  users?: number;
  /** Jobs kept waiting while the kills go on, so a render is always about to start (default workers). */
  backlog?: number;
  /** Random pause before each kill, ms (default [150, 1500]): kills land anywhere in a render. */
  pauseMs?: [number, number];
  /** How long the jobs may take to settle after the last kill (default 180 s). */
  settleTimeoutMs?: number;
  /** Seed of the random choices; printed so a failing run can be replayed (default random). */
  seed?: number;
  log?: (line: string) => void;
}

export interface KilledWorker {
  pid: number;
  /** Jobs whose lease the worker held when it died. */
  jobIds: number[];
}

export interface JobEvidence {
  id: number;
  userId: number;
  status: string;
  attempts: number;
  /** Kinds of the ledger entries of the job's hold, sorted: ['capture', 'hold'] or ['hold', 'release']. */
  holdEntries: string[];
  holdState: string | null;
  videoKey: string | null;
  /** Every object in the bucket under the job's own prefix. */
  objects: string[];
}

export interface UserEvidence {
  id: number;
  completed: number;
  balances: Awaited<ReturnType<typeof ledgerBalances>>;
}

export interface KillRunResult {
  seed: number;
  kills: KilledWorker[];
  /** Queue calls answered 201 (each sent twice with one Idempotency-Key, as a double click). */
  accepted: number;
  jobs: JobEvidence[];
  users: UserEvidence[];
  /** Objects under users/<id>/jobs/ that belong to no job (a duplicate or stray output). */
  strayObjects: string[];
  /** True when every job reached completed or failed before settleTimeoutMs. */
  settled: boolean;
  seconds: number;
  /** The children's recent output, for failure messages. */
  logs: string;
}

export interface KillRunSummary {
  kills: number;
  jobs: number;
  completed: number;
  failed: number;
  /** Jobs neither completed nor failed. */
  lost: number;
  /** Jobs whose hold was resolved more than once, or captured without the job completing. */
  doubleCharges: number;
  /** Jobs whose ledger entries are not exactly one hold and one resolution matching the status. */
  badSettlements: number;
  /** Completed jobs without exactly one video in the bucket, failed jobs that left files, stray objects. */
  outputProblems: number;
  ledgerBalanced: boolean;
}

/** Short speech keeps each real render to a few seconds. */
const SCRIPT = 'Try it today.';
const PASSWORD = 'crash test password';

async function api(base: ClusterApi, method: string, path: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: RequestInit['body'];
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${base.url}${path}`, { method, headers, body: payload });
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  return { status: res.status, json, headers: res.headers };
}

export async function runWorkerKills(opts: KillRunOptions): Promise<KillRunResult> {
  const workers = opts.workers ?? 3;
  const userCount = opts.users ?? 3;
  const backlog = opts.backlog ?? workers;
  const [pauseMin, pauseMax] = opts.pauseMs ?? [150, 1500];
  const seed = opts.seed ?? randomBytes(4).readUInt32LE(0);
  const rand = seededRandom(seed);
  const log = opts.log ?? (() => undefined);
  const started = performance.now();

  const cluster = await startCluster({
    apis: 1,
    workers,
    s3: true,
    workerConcurrency: 1,
    // A short lease so a killed worker's job is taken over within seconds; the heartbeat keeps live ones.
    env: {
      JOB_LEASE_MS: '3000',
      JOB_HEARTBEAT_MS: '500',
      JOB_POLL_MS: '200',
      JOB_SWEEP_MS: '500',
      JOB_RETRY_BASE_MS: '300',
      JOB_RETRY_MAX_MS: '2000',
    },
  });
  log(`crash: cluster up in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${seed})`);
  try {
    const db = cluster.db.kysely;
    const front = cluster.apis[0]!;

    // Accounts with plenty of credits, each with one short project.
    const users: Array<{ id: number; email: string; token: string; projectId: number }> = [];
    for (let i = 0; i < userCount; i++) {
      const email = `crash-${randomBytes(4).toString('hex')}@example.com`;
      const reg = await api(front, 'POST', '/api/auth/register', null, { email, password: PASSWORD });
      if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.json)}`);
      const token = String(reg.json!.access_token);
      const me = await api(front, 'GET', '/api/user/me', token);
      const id = Number(me.json!.id);
      // Verified from the mail the API wrote, as its owner would: only verified accounts spend credits.
      const verified = await verifyFromOutbox(path.join(front.dataDir, 'outbox'), email);
      if (verified.status !== 200) throw new Error(`verify failed: ${verified.status}`);
      await grantCredits(db, id, 100_000, 'crash test');
      const form = new FormData();
      form.append('name', `Crash ${i + 1}`);
      const project = await api(front, 'POST', '/api/projects/', token, form);
      if (project.status !== 200) throw new Error(`project failed: ${project.status}`);
      const projectId = Number(project.json!.id);
      const put = await api(front, 'PUT', `/api/projects/${projectId}`, token, { script: SCRIPT });
      if (put.status !== 200) throw new Error(`script failed: ${put.status}`);
      const avatars = await api(front, 'GET', '/api/avatars/', token);
      const actorId = (avatars.json as unknown as Array<{ id: number }>)[0]?.id;
      const picked = await api(front, 'POST', `/api/projects/${projectId}/selected-characters`, token, {
        character_ids: [actorId],
      });
      if (picked.status !== 200) throw new Error(`actor failed: ${picked.status}`);
      users.push({ id, email, token, projectId });
    }

    // Each queue call is sent twice at once with one Idempotency-Key (a double click): one job, one hold.
    let queued = 0;
    let accepted = 0;
    const queueOne = async () => {
      const u = users[queued % users.length]!;
      const key = `crash-${queued++}`;
      const send = () =>
        fetch(`${front.url}/api/jobs/${u.projectId}/queue`, {
          method: 'POST',
          headers: { authorization: `Bearer ${u.token}`, 'idempotency-key': key },
        });
      let [a, b] = await Promise.all([send(), send()]);
      if (a.status === 401 || b.status === 401) {
        // Access tokens are short-lived and a 100-kill run outlasts one: sign in again, resend (same key).
        const login = await api(front, 'POST', '/api/auth/login', null, { email: u.email, password: PASSWORD });
        if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
        u.token = String(login.json!.access_token);
        [a, b] = await Promise.all([send(), send()]);
      }
      const [ja, jb] = (await Promise.all([a.json(), b.json()])) as [{ id?: number }, { id?: number }];
      if (a.status !== 201 || b.status !== 201 || ja.id !== jb.id) {
        throw new Error(`queue ${key}: ${a.status}/${b.status} ${JSON.stringify([ja, jb])}`);
      }
      accepted++;
    };
    const waiting = async () =>
      Number(
        (
          await db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'queued')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const topUp = async () => {
      for (let n = await waiting(); n < backlog; n++) await queueOne();
    };
    const leasedBy = async (pid: number) =>
      (
        await db
          .selectFrom('jobs')
          .select('id')
          .where('status', '=', 'in_progress')
          .where('lease_owner', 'like', `%:${pid}:%`)
          .where('lease_expires_at', '>', new Date().toISOString())
          .execute()
      ).map((r) => r.id);

    // The kill loop: pause, pick a worker that is rendering, SIGKILL it, start its replacement in the background.
    const kills: KilledWorker[] = [];
    const restarting = new Map<number, Promise<unknown>>();
    const restartErrors: unknown[] = [];
    while (kills.length < opts.kills) {
      await topUp();
      await sleep(pauseMin + rand() * (pauseMax - pauseMin));
      const candidates: Array<{ slot: number; pid: number; jobIds: number[] }> = [];
      for (const [slot, w] of cluster.workers.entries()) {
        if (restarting.has(slot) || !w.alive) continue;
        const jobIds = await leasedBy(w.pid);
        if (jobIds.length > 0) candidates.push({ slot, pid: w.pid, jobIds });
      }
      const victim = candidates[Math.floor(rand() * candidates.length)];
      if (!victim) continue; // nobody is rendering right now (all booting or between jobs)
      await cluster.workers[victim.slot]!.kill('SIGKILL');
      kills.push({ pid: victim.pid, jobIds: victim.jobIds });
      log(`crash: kill ${kills.length}/${opts.kills}: worker pid ${victim.pid} during job ${victim.jobIds.join(',')}`);
      restarting.set(
        victim.slot,
        cluster
          .restartWorker(victim.slot)
          .catch((err: unknown) => restartErrors.push(err))
          .finally(() => restarting.delete(victim.slot)),
      );
    }
    await Promise.all(restarting.values());
    if (restartErrors.length > 0) throw restartErrors[0];

    // Settle: every job completed or failed, or the timeout.
    const deadline = Date.now() + (opts.settleTimeoutMs ?? 180_000);
    let settled = false;
    while (Date.now() < deadline) {
      const open = await db
        .selectFrom('jobs')
        .select('id')
        .where('status', 'not in', ['completed', 'failed'])
        .execute();
      if (open.length === 0) {
        settled = true;
        break;
      }
      await sleep(500);
    }
    log(`crash: ${settled ? 'settled' : 'NOT settled'} ${((performance.now() - started) / 1000).toFixed(1)} s in`);

    const evidence = await gather(cluster, users);
    return {
      seed,
      kills,
      accepted,
      ...evidence,
      settled,
      seconds: (performance.now() - started) / 1000,
      logs: cluster.logs(),
    };
  } finally {
    await cluster.stop();
  }
}

/** Reads back the jobs, their hold entries, the bucket and every user's ledger. */
async function gather(cluster: Cluster, users: Array<{ id: number }>) {
  const db = cluster.db.kysely;
  const userIds = users.map((u) => u.id);
  const rows = await db
    .selectFrom('jobs')
    .leftJoin('credit_holds', 'credit_holds.id', 'jobs.hold_id')
    .select([
      'jobs.id',
      'jobs.user_id',
      'jobs.status',
      'jobs.attempts',
      'jobs.hold_id',
      'jobs.file_token',
      'jobs.video_key',
      'credit_holds.state as hold_state',
    ])
    .where('jobs.user_id', 'in', userIds)
    .orderBy('jobs.id')
    .execute();
  const entries = await db
    .selectFrom('credit_entries')
    .select(['hold_id', 'kind'])
    .where('user_id', 'in', userIds)
    .where('hold_id', 'is not', null)
    .execute();
  const kindsByHold = new Map<number, string[]>();
  for (const e of entries) kindsByHold.set(e.hold_id!, [...(kindsByHold.get(e.hold_id!) ?? []), e.kind]);

  const objects = await listBucket(cluster, 'users/');
  const jobs: JobEvidence[] = rows.map((r) => {
    const prefix = `${jobFilePrefix({ user_id: r.user_id, id: r.id, file_token: r.file_token })}/`;
    return {
      id: r.id,
      userId: r.user_id,
      status: r.status,
      attempts: r.attempts,
      holdEntries: r.hold_id === null ? [] : [...(kindsByHold.get(r.hold_id) ?? [])].sort(),
      holdState: r.hold_state,
      videoKey: r.video_key,
      objects: objects.filter((k) => k.startsWith(prefix)),
    };
  });
  const owned = new Set(jobs.flatMap((j) => j.objects));
  const strayObjects = objects.filter((k) => /^users\/\d+\/jobs\//.test(k) && !owned.has(k));

  const usersOut: UserEvidence[] = [];
  for (const id of userIds) {
    usersOut.push({
      id,
      completed: jobs.filter((j) => j.userId === id && j.status === 'completed').length,
      balances: await ledgerBalances(db, id),
    });
  }
  return { jobs, users: usersOut, strayObjects };
}

async function listBucket(cluster: Cluster, prefix: string): Promise<string[]> {
  if (!cluster.s3) return [];
  const client = new S3Client({
    endpoint: cluster.s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const keys: string[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: cluster.s3.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return keys;
}

/** The settlement a job must have: its hold entered once and resolved once, captured iff it completed. */
export const expectedHoldEntries = (status: string): string[] =>
  status === 'completed' ? ['capture', 'hold'] : ['hold', 'release'];

/** Completed jobs without exactly one video in the bucket, and failed jobs that left files behind. */
export const outputProblemJobs = (r: KillRunResult): JobEvidence[] =>
  r.jobs.filter((j) =>
    j.status === 'completed' ? j.objects.filter((k) => k.endsWith('.mp4')).length !== 1 : j.objects.length > 0,
  );

/** Counts for the bench line and the test's first look; the test also asserts every job one by one. */
export function summarize(r: KillRunResult): KillRunSummary {
  const terminal = r.jobs.filter((j) => j.status === 'completed' || j.status === 'failed');
  const badSettlement = r.jobs.filter(
    (j) => JSON.stringify(j.holdEntries) !== JSON.stringify(expectedHoldEntries(j.status)),
  );
  const badOutputs = outputProblemJobs(r);
  const ledgerBalanced = r.users.every(
    (u) =>
      u.balances.granted === u.balances.available + u.balances.held + u.balances.consumed &&
      u.balances.held === 0 &&
      u.balances.consumed === u.completed * 100,
  );
  return {
    kills: r.kills.length,
    jobs: r.jobs.length,
    completed: r.jobs.filter((j) => j.status === 'completed').length,
    failed: r.jobs.filter((j) => j.status === 'failed').length,
    lost: r.jobs.length - terminal.length,
    doubleCharges: r.jobs.filter((j) => {
      const resolutions = j.holdEntries.filter((k) => k === 'capture' || k === 'release').length;
      return resolutions > 1 || (j.holdEntries.includes('capture') && j.status !== 'completed');
    }).length,
    badSettlements: badSettlement.length,
    outputProblems: badOutputs.length + r.strayObjects.length,
    ledgerBalanced,
  };
}
