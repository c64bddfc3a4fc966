import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import S3rver from 's3rver';
import { openDatabase, type Db } from '../../src/db/database.ts';
import type { FileStore } from '../../src/storage/file-store.ts';
import { createS3FileStore } from '../../src/storage/s3-file-store.ts';
import { createPgDatabase } from '../helpers/database.ts';
import { ensureSharedRedis, SHARED_REDIS_URL } from '../helpers/shared-redis.ts';
import { scaleEntries, type ScaleEntries } from './bundle.ts';

/**
 * A real scale-mode deployment for tests: one fresh PostgreSQL database, a unique key prefix on the local Redis,
 * an s3rver bucket, N API processes (src/main.ts) and M workers (src/worker.ts, both bundled: bundle.ts), each a
 * separate `node` process with its own DATA_DIR. Every child is killed by `stop()`, by the test process exiting,
 * and by its own guard when the test process dies without cleaning up.
 *
 *   const cluster = await startCluster({ apis: 2, workers: 3 });
 *   fetch(`${cluster.apis[0].url}/api/health`);
 *   await cluster.workers[1].kill('SIGKILL'); await cluster.restartWorker(1);
 *   await cluster.stop();
 */

const REDIS_URL = SHARED_REDIS_URL;
const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const BOOT_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const OUTPUT_KEEP = 16_000;

/**
 * Loaded into every child before the server code: exits the child (SIGKILL, no clean-up needed: the test's
 * database and Redis prefix are thrown away) once the test process is gone, so a crashed or killed test run
 * never leaves renders running.
 */
const ORPHAN_GUARD = `
const parent = process.ppid;
setInterval(() => {
  let alive = process.ppid === parent;
  if (alive) { try { process.kill(parent, 0); } catch { alive = false; } }
  if (!alive) process.kill(process.pid, 'SIGKILL');
}, 500).unref();
`;

export interface ClusterOptions {
  /** API processes (default 2). */
  apis?: number;
  /** Worker processes (default 3). */
  workers?: number;
  /** Files in an s3rver bucket (default true); false means each process writes its own DATA_DIR/files. */
  s3?: boolean;
  /** WORKER_CONCURRENCY of each worker (default 1). */
  workerConcurrency?: number;
  /** Extra environment for every child, e.g. `{ JOB_LEASE_MS: '3000' }`; wins over the harness defaults. */
  env?: Record<string, string>;
}

export interface ClusterProcess {
  readonly role: 'api' | 'worker';
  readonly index: number;
  readonly pid: number;
  /** This process's own DATA_DIR (nothing is shared through it). */
  readonly dataDir: string;
  readonly alive: boolean;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last stdout+stderr of the process, for failure messages. */
  output(): string;
  /** Sends the signal and waits until the process has exited (SIGKILL after 15 s if a SIGTERM hangs). */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ClusterApi extends ClusterProcess {
  readonly role: 'api';
  /** Base URL, e.g. http://127.0.0.1:41234 (routes are under /api). */
  readonly url: string;
}

/** One claim of a job row by a runner, recorded by a database trigger the harness installs. */
export interface JobClaim {
  jobId: number;
  jobName: string;
  /** The executor's lease owner: `<host>:<pid>:<random>`. */
  owner: string;
  pid: number;
  attempts: number;
}

export interface Cluster {
  apis: ClusterApi[];
  /** Current worker processes; `restartWorker(i)` replaces entry i. */
  workers: ClusterProcess[];
  /** Starts a new worker in slot i (SIGKILLs the old one first if it is still running). */
  restartWorker(i: number): Promise<ClusterProcess>;
  /** pids of every API / worker process started so far (including killed and replaced ones). */
  pids: { apis: Set<number>; workers: Set<number> };
  /** A connection to the shared PostgreSQL database, for setup (credits) and assertions (ledger). */
  db: Db;
  databaseUrl: string;
  redisUrl: string;
  /** JOB_REDIS_PREFIX of this cluster: BullMQ keys and pub/sub channels start with it. */
  redisPrefix: string;
  jwtSecret: string;
  s3: { endpoint: string; bucket: string; directory: string; store: FileStore } | null;
  /** Every job claim so far, oldest first (which process ran which job, and how often). */
  claims(): Promise<JobClaim[]>;
  /** The recent output of every child, labelled, for failure messages. */
  logs(): string;
  /** Stops every child (SIGTERM, then SIGKILL), drops the database, deletes the Redis keys and the bucket. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((r) => srv.close(r));
  return port;
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  r.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

function spawnChild(
  entries: ScaleEntries,
  role: 'api' | 'worker',
  index: number,
  dataDir: string,
  guard: string,
  env: Record<string, string>,
): { handle: ClusterProcess | ClusterApi; ready: Promise<void> } {
  // node itself on the bundled entry point (bundle.ts): a SIGKILL hits the process that runs the jobs.
  const child = spawn(process.execPath, ['--import', guard, entries[role]], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  const append = (d: Buffer) => {
    out = (out + d.toString()).slice(-OUTPUT_KEEP);
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const isAlive = () => child.exitCode === null && child.signalCode === null;

  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${role} ${index} did not become ready in ${BOOT_TIMEOUT_MS} ms:\n${out}`)),
      BOOT_TIMEOUT_MS,
    );
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${role} ${index} exited (${code ?? signal}) while starting:\n${out}`));
    });
    if (role === 'worker') {
      child.stdout!.on('data', () => {
        if (out.includes('[worker] running bullmq jobs')) {
          clearTimeout(timer);
          resolve();
        }
      });
    } else {
      const url = `http://127.0.0.1:${env.PORT}/api/health`;
      const probe = async () => {
        while (isAlive()) {
          const ok = await fetch(url)
            .then((r) => r.status === 200)
            .catch(() => false);
          if (ok) {
            clearTimeout(timer);
            return resolve();
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      void probe();
    }
  });
  ready.catch(() => undefined); // observed by the caller; avoid an unhandled rejection after a later kill

  const handle: ClusterProcess | ClusterApi = {
    role,
    index,
    ...(role === 'api' ? { url: `http://127.0.0.1:${env.PORT}` } : {}),
    pid: child.pid!,
    dataDir,
    get alive() {
      return isAlive();
    },
    exited,
    output: () => out,
    async kill(signal = 'SIGTERM') {
      if (!isAlive()) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
  return { handle, ready };
}

/** Starts the whole deployment; on any failure it tears down what it started and throws with the children's output. */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const apiCount = opts.apis ?? 2;
  const workerCount = opts.workers ?? 3;
  killAllOnExit();
  await ensureSharedRedis();
  const entries = await scaleEntries();

  const root = await mkdtemp(path.join(tmpdir(), 'hookreel-cluster-'));
  const guard = path.join(root, 'orphan-guard.mjs');
  await writeFile(guard, ORPHAN_GUARD);
  const redisPrefix = `hookreel-scale-${randomBytes(5).toString('hex')}`;
  const jwtSecret = randomBytes(36).toString('base64url');
  const cleanups: Array<() => Promise<void>> = [() => rm(root, { recursive: true, force: true })];
  const all: ClusterProcess[] = [];

  const cluster: Cluster = {
    apis: [],
    workers: [],
    pids: { apis: new Set(), workers: new Set() },
    db: undefined as unknown as Db,
    databaseUrl: '',
    redisUrl: REDIS_URL,
    redisPrefix,
    jwtSecret,
    s3: null,
    async restartWorker(i) {
      const old = cluster.workers[i];
      if (old?.alive) await old.kill('SIGKILL');
      const w = await startWorker(i);
      cluster.workers[i] = w;
      return w;
    },
    async claims() {
      const rows = await sql<{ job_id: number; job_name: string; owner: string; attempts: number }>`
        SELECT job_id, job_name, owner, attempts FROM scale_test_claims ORDER BY id`.execute(cluster.db.kysely);
      return rows.rows.map((r) => ({
        jobId: Number(r.job_id),
        jobName: r.job_name,
        owner: r.owner,
        pid: Number(r.owner.split(':').at(-2)),
        attempts: Number(r.attempts),
      }));
    },
    logs() {
      return all.map((p) => `----- ${p.role} ${p.index} (pid ${p.pid}) -----\n${p.output().slice(-4000)}`).join('\n');
    },
    async stop() {
      await Promise.all(all.map((p) => p.kill('SIGTERM').catch(() => undefined)));
      for (const c of [...cleanups].reverse()) await c().catch(() => undefined);
      cleanups.length = 0;
    },
  };

  const baseEnv = (): Record<string, string> => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      // The parent's own deployment settings must not leak into the cluster.
      if (v !== undefined && !/^(S3_|DATABASE_URL|REDIS_URL|JOB_|PORT$|DATA_DIR$|RUN_JOBS$)/.test(k)) env[k] = v;
    }
    return {
      ...env,
      HOST: '127.0.0.1',
      DATABASE_URL: cluster.databaseUrl,
      REDIS_URL: REDIS_URL,
      JOB_REDIS_PREFIX: redisPrefix,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '10000',
      WORKER_CONCURRENCY: String(opts.workerConcurrency ?? 1),
      // Fast retries and sweeps keep a transient failure from stalling a test; a short grace keeps stop() quick.
      JOB_RETRY_BASE_MS: '500',
      JOB_RETRY_MAX_MS: '4000',
      JOB_SWEEP_MS: '1000',
      JOB_SHUTDOWN_GRACE_MS: '2000',
      ...(cluster.s3
        ? {
            S3_BUCKET: cluster.s3.bucket,
            S3_ENDPOINT: cluster.s3.endpoint,
            S3_REGION: 'us-east-1',
            S3_ACCESS_KEY_ID: 'S3RVER',
            S3_SECRET_ACCESS_KEY: 'S3RVER',
          }
        : {}),
      ...opts.env,
    };
  };

  let spawned = 0;
  const launch = async (role: 'api' | 'worker', index: number, extra: Record<string, string>) => {
    const dataDir = path.join(root, `${role}-${index}-${++spawned}`);
    await mkdir(dataDir, { recursive: true });
    const env = { ...baseEnv(), DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web'), ...extra };
    const { handle, ready } = spawnChild(entries, role, index, dataDir, guard, env);
    all.push(handle);
    (role === 'api' ? cluster.pids.apis : cluster.pids.workers).add(handle.pid);
    return { handle, ready };
  };

  const startApi = async (index: number): Promise<ClusterApi> => {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const { handle, ready } = await launch('api', index, { PORT: String(port), PUBLIC_URL: url });
      try {
        await ready;
        return handle as ClusterApi;
      } catch (err) {
        // Another process took the free port between our probe and the child's listen: try another one.
        if (attempt < 3 && handle.output().includes('EADDRINUSE')) continue;
        throw err;
      }
    }
  };
  const startWorker = async (index: number): Promise<ClusterProcess> => {
    const { handle, ready } = await launch('worker', index, {});
    await ready;
    return handle;
  };

  try {
    const pgDb = await createPgDatabase();
    cleanups.push(pgDb.drop);
    cluster.databaseUrl = pgDb.url;
    cluster.db = openDatabase(pgDb.url, { poolSize: 4 });
    cleanups.push(() => cluster.db.destroy());
    cleanups.push(() => deleteRedisKeys(REDIS_URL, redisPrefix));

    if (opts.s3 ?? true) {
      const directory = path.join(root, 's3');
      const bucket = 'hookreel';
      const s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory,
        configureBuckets: [{ name: bucket, configs: [] }],
      });
      const { port } = (await s3.run()) as { port: number };
      cleanups.push(() => s3.close());
      const endpoint = `http://127.0.0.1:${port}`;
      cluster.s3 = {
        endpoint,
        bucket,
        directory,
        store: createS3FileStore({
          bucket,
          endpoint,
          region: 'us-east-1',
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
        }),
      };
    }

    // All boot together: migrations run under an advisory lock, the actor catalogue seeds idempotently.
    const started = await Promise.all([
      ...Array.from({ length: apiCount }, (_, i) => startApi(i)),
      ...Array.from({ length: workerCount }, (_, i) => startWorker(i)),
    ]);
    cluster.apis.push(...(started.slice(0, apiCount) as ClusterApi[]));
    cluster.workers.push(...started.slice(apiCount));
    await installClaimRecorder(cluster.db);
    return cluster;
  } catch (err) {
    const logs = cluster.logs();
    await cluster.stop();
    throw new Error(`${(err as Error).message}\n${logs}`, { cause: err });
  }
}

/** Records every claim of a job row (lease_owner set to a new owner) in scale_test_claims. Test databases only. */
async function installClaimRecorder(db: Db): Promise<void> {
  await sql`CREATE TABLE scale_test_claims (
    id serial PRIMARY KEY, job_id integer NOT NULL, job_name text NOT NULL, owner text NOT NULL,
    attempts integer NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`.execute(db.kysely);
  await sql`CREATE FUNCTION scale_test_record_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.lease_owner IS NOT NULL AND NEW.lease_owner IS DISTINCT FROM OLD.lease_owner THEN
        INSERT INTO scale_test_claims (job_id, job_name, owner, attempts)
        VALUES (NEW.id, NEW.name, NEW.lease_owner, NEW.attempts);
      END IF;
      RETURN NEW;
    END $$`.execute(db.kysely);
  await sql`CREATE TRIGGER scale_test_claims AFTER UPDATE OF lease_owner ON jobs
    FOR EACH ROW EXECUTE FUNCTION scale_test_record_claim()`.execute(db.kysely);
}
