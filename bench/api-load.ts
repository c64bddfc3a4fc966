/**
 * API load: 200 signed-in users polling their job list and job details (what the studio's Jobs page does),
 * with a few of them uploading product photos at the same time, then 500 open job-event streams (SSE) and how
 * fast a job change reaches every one of them. Runs the real server entry as a child process (job runner off:
 * this measures the API, not rendering) on SQLite, then on a fresh PostgreSQL database.
 * Prints, per dialect:
 *   api-load <dialect>: jobs poll <users> users flat out (list + detail) — <n> req/s, p50 <x> ms, p99 <y> ms,
 *     0 errors, 0 non-2xx
 *   api-load <dialect>: jobs poll <users> users at 1 req/s each (list + detail) — ...
 *   api-load <dialect>: uploads <n> users alongside (product photo PNG) — ...
 *   api-load <dialect>: sse <n> open connections, event fan-out p50 <x> ms / p99 <y> ms, server RSS <z> MB, 0 dropped
 * Exits 1 on any error, timeout, non-2xx answer or dropped event.
 * Knobs: BENCH_DIALECTS=sqlite,postgres BENCH_USERS=200 BENCH_SECONDS=12 BENCH_UPLOADERS=8 BENCH_SSE=500
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon, { type Options, type Result } from 'autocannon';
import { loadConfig } from '../apps/server/src/config.ts';
import { closeContext, createContext, type AppContext } from '../apps/server/src/context.ts';
import { jobsRepository } from '../apps/server/src/db/repositories/jobs.ts';
import { avatarsRepository } from '../apps/server/src/db/repositories/avatars.ts';
import { projectsRepository } from '../apps/server/src/db/repositories/projects.ts';
import { renderProjectVideoJob } from '../apps/server/src/services/projects/jobs.ts';
import { createUserWithFreeCredits } from '../apps/server/src/services/account/users.ts';
import { createPgDatabase } from '../apps/server/test/helpers/database.ts';
import { pngImage } from '../apps/server/test/helpers/images.ts';
import { startServerProcess, type ServerProcess } from './lib/server-process.ts';
import { openSse, type SseStream } from './lib/sse-client.ts';

const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const USERS = Number(process.env.BENCH_USERS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 8);
const SSE_CONNECTIONS = Number(process.env.BENCH_SSE ?? 500);
/** Each round queues one job per user; free credits (5) cover the rounds. */
const SSE_ROUNDS = 3;
const JOBS_PER_USER = 8;
/** Seconds before autocannon counts a request as timed out (and failed). */
const REQUEST_TIMEOUT_S = 30;
const BOUNDARY = 'hookreel-bench-boundary';

interface BenchUser {
  id: number;
  token: string;
  projectId: number;
  jobIds: number[];
}

async function main(): Promise<void> {
  await checkFileLimit();
  const load = loadavg()[0] ?? 0;
  console.log(`api-load: ${cpus().length} cores, load average ${load.toFixed(1)} at start, node ${process.version}`);
  const failures: string[] = [];
  for (const dialect of DIALECTS) failures.push(...(await runDialect(dialect)));
  if (failures.length) {
    console.error(`api-load FAILED:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
}

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookreel-api-load-'));
  const pg = dialect === 'postgres' ? await createPgDatabase() : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    // The bench signs the users' access tokens with the server's secret.
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ACCESS_TOKEN_TTL_SEC: '900',
    LOG_LEVEL: 'warn',
    RUN_JOBS: 'false',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  const failures: string[] = [];
  let server: ServerProcess | null = null;
  try {
    const users = await seed(env);
    server = await startServerProcess(env);
    await sanityCheck(server.url, users[0]!);
    const png = await pngImage(640, 640, false);
    // Warm-up (not reported): JIT, statement caches, the database's page cache, sharp's first load.
    await Promise.all([
      autocannon({ ...pollOptions(server.url, users), connections: 50, duration: 3 }),
      autocannon({ ...uploadOptions(server.url, users.slice(0, 2), png), duration: 3 }),
    ]);

    // Capacity: every user's connection asks again as soon as it has an answer.
    const flat = await autocannon(pollOptions(server.url, users));
    failures.push(...report(`${dialect}: jobs poll ${users.length} users flat out (list + detail)`, flat));

    // The studio polls a running job's list and detail every TIMINGS.jobPollMs (3 s); one request a second per
    // user (each every 2 s) is that pace with margin. Uploads run flat out beside it.
    const [paced, uploads] = await Promise.all([
      autocannon({ ...pollOptions(server.url, users), connectionRate: 1 }),
      autocannon(uploadOptions(server.url, users.slice(0, UPLOADERS), png)),
    ]);
    failures.push(...report(`${dialect}: jobs poll ${users.length} users at 1 req/s each (list + detail)`, paced));
    failures.push(
      ...report(`${dialect}: uploads ${UPLOADERS} users alongside (product photo PNG, ${png.length} B)`, uploads),
    );

    failures.push(...(await sseFanOut(dialect, server, users)));
    const warnings = server.output().match(/^.*Warning.*$/gm) ?? [];
    if (warnings.length) failures.push(`${dialect}: server printed warnings:\n${warnings.join('\n')}`);
  } catch (err) {
    failures.push(`${dialect}: ${(err as Error).stack ?? String(err)}`);
    if (server) console.error(`server output (last lines):\n${server.output().split('\n').slice(-40).join('\n')}`);
  } finally {
    await server?.stop();
    await pg?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return failures;
}

/** Users, one project each and finished video jobs, written through the repositories before the server starts. */
async function seed(env: Record<string, string>): Promise<BenchUser[]> {
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  try {
    const users: BenchUser[] = [];
    for (let start = 0; start < USERS; start += 20) {
      const batch = Array.from({ length: Math.min(20, USERS - start) }, (_, i) => seedUser(ctx, start + i));
      users.push(...(await Promise.all(batch)));
    }
    return users;
  } finally {
    await closeContext(ctx);
  }
}

async function seedUser(ctx: AppContext, i: number): Promise<BenchUser> {
  const seeded = await ctx.db.kysely.transaction().execute(async (trx) => {
    const user = await createUserWithFreeCredits(trx, {
      email: `load-${i}@example.com`,
      passwordHash: null,
      trialCredits: ctx.config.trialCredits,
    });
    if (!user) throw new Error(`could not create bench user ${i}`);
    const project = await projectsRepository.insert(trx, { userId: user.id, name: `Serum launch ${i}`, fileKey: null });
    // A script makes the project queueable (it is required), as the editor would have saved it.
    await projectsRepository.update(trx, user.id, project.id, { script: 'This serum changed my mornings.' });
    // And an actor: a project video needs one to present the product.
    const actor = (await avatarsRepository.catalogueRows(trx)).find((a) => a.deleted_at === null);
    if (actor) await projectsRepository.setSelectedCharacters(trx, project.id, [actor.id]);
    const jobIds: number[] = [];
    for (let j = 0; j < JOBS_PER_USER; j++) {
      const at = new Date(Date.now() - (JOBS_PER_USER - j) * 60_000).toISOString();
      const token = randomBytes(12).toString('base64url');
      const prefix = `users/${user.id}/jobs/${token}`;
      jobIds.push(
        await jobsRepository.insert(trx, {
          user_id: user.id,
          name: renderProjectVideoJob.name,
          project_id: project.id,
          project_name: project.name,
          status: 'completed',
          progress: 100,
          payload: JSON.stringify({ projectId: project.id }),
          logs: JSON.stringify(['Queued', 'Writing the voice-over', 'Rendering the video', 'Done']),
          result: null,
          video_key: `${prefix}/video.mp4`,
          poster_key: `${prefix}/poster.jpg`,
          error: null,
          attempts: 1,
          max_attempts: 3,
          run_after: at,
          file_token: token,
          created_at: at,
          updated_at: at,
          started_at: at,
          finished_at: at,
        }),
      );
    }
    return { id: user.id, projectId: project.id, jobIds };
  });
  return { ...seeded, token: await ctx.tokens.sign(seeded.id) };
}

/** The load would be meaningless if the token or the seeded rows were wrong: check one user end to end. */
async function sanityCheck(url: string, user: BenchUser): Promise<void> {
  const res = await fetch(`${url}/api/jobs/`, { headers: { authorization: `Bearer ${user.token}` } });
  const jobs = (await res.json()) as unknown[];
  if (res.status !== 200 || !Array.isArray(jobs) || jobs.length !== JOBS_PER_USER) {
    throw new Error(`sanity check: GET /api/jobs/ answered ${res.status} with ${JSON.stringify(jobs).slice(0, 200)}`);
  }
}

/** One connection per user, with that user's token: the job list, then one of their jobs, in a loop. */
function pollOptions(url: string, users: BenchUser[]): Options {
  let next = 0;
  return {
    url,
    connections: users.length,
    duration: SECONDS,
    timeout: REQUEST_TIMEOUT_S,
    setupClient(client) {
      const user = users[next++ % users.length]!;
      const headers = { authorization: `Bearer ${user.token}` };
      let k = 0;
      client.setRequests([
        { method: 'GET', path: '/api/jobs/', headers },
        {
          method: 'GET',
          path: `/api/jobs/${user.jobIds[0]}`,
          headers,
          setupRequest: (req) => ({ ...req, path: `/api/jobs/${user.jobIds[k++ % user.jobIds.length]}` }),
        },
      ]);
    },
  };
}

/** New projects with a product photo (POST /api/projects/, multipart): decoded, sanitised and stored each time. */
function uploadOptions(url: string, users: BenchUser[], png: Buffer): Options {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nGlow serum\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="product.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    png,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  let next = 0;
  return {
    url,
    connections: users.length,
    duration: SECONDS,
    timeout: REQUEST_TIMEOUT_S,
    setupClient(client) {
      const user = users[next++ % users.length]!;
      client.setRequests([
        {
          method: 'POST',
          path: '/api/projects/',
          headers: {
            authorization: `Bearer ${user.token}`,
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          },
          body,
        },
      ]);
    },
  };
}

function report(label: string, r: Result): string[] {
  console.log(
    `api-load ${label} — ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ` +
      `${r.errors} errors, ${r.non2xx} non-2xx (${r.requests.total} requests in ${r.duration.toFixed(0)} s)`,
  );
  const bad: string[] = [];
  if (r.requests.total === 0) bad.push(`${label}: no requests completed`);
  if (r.errors || r.timeouts || r.non2xx || r.resets) {
    bad.push(
      `${label}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx, ${r.resets} resets; ` +
        `status codes ${JSON.stringify(r.statusCodeStats)}`,
    );
  }
  return bad;
}

/**
 * SSE_CONNECTIONS streams spread over the users (two or three per user, like several open tabs), kept open
 * while every user queues a render SSE_ROUNDS times. Fan-out latency: from sending the queue request to the
 * job's event arriving on each of that user's streams. A stream that misses an event or closes is dropped.
 */
async function sseFanOut(dialect: string, server: ServerProcess, users: BenchUser[]): Promise<string[]> {
  const streams: Array<{ user: BenchUser; stream: SseStream }> = [];
  const rssBefore = await server.rssMb();
  try {
    // Opened in waves so the connects do not all land in the listen backlog at once.
    for (let i = 0; i < SSE_CONNECTIONS; i += 50) {
      const wave = Array.from({ length: Math.min(50, SSE_CONNECTIONS - i) }, async (_, j) => {
        const user = users[(i + j) % users.length]!;
        return { user, stream: await openSse(`${server.url}/api/jobs/events`, user.token) };
      });
      streams.push(...(await Promise.all(wave)));
    }

    const samples: number[] = [];
    let dropped = 0;
    for (let round = 0; round < SSE_ROUNDS; round++) {
      const sent = new Map<number, { jobId: number; t0: number }>();
      await eachLimit(users, 10, async (user) => {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/api/jobs/${user.projectId}/queue`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}` },
        });
        const body = (await res.json()) as { id?: number };
        if (res.status !== 201 || typeof body.id !== 'number') {
          throw new Error(`queue answered ${res.status}: ${JSON.stringify(body)}`);
        }
        sent.set(user.id, { jobId: body.id, t0 });
      });
      const expected = (s: { user: BenchUser }) => sent.get(s.user.id)!;
      const deadline = performance.now() + 30_000;
      while (performance.now() < deadline && streams.some((s) => !s.stream.arrivals.has(expected(s).jobId))) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const s of streams) {
        const { jobId, t0 } = expected(s);
        const at = s.stream.arrivals.get(jobId);
        if (at === undefined) dropped++;
        else samples.push(at - t0);
      }
    }

    const open = streams.filter((s) => !s.stream.closed).length;
    const rss = await server.rssMb();
    samples.sort((a, b) => a - b);
    const [p50, p99] = [percentile(samples, 0.5).toFixed(0), percentile(samples, 0.99).toFixed(0)];
    console.log(
      `api-load ${dialect}: sse ${open} open connections, event fan-out p50 ${p50} ms / p99 ${p99} ms, ` +
        `server RSS ${rss.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before the streams), ${dropped} dropped ` +
        `(${samples.length} of ${streams.length * SSE_ROUNDS} deliveries, ${users.length * SSE_ROUNDS} job events)`,
    );
    const bad: string[] = [];
    if (dropped) bad.push(`${dialect}: sse ${dropped} events not delivered within 30 s`);
    if (open !== SSE_CONNECTIONS) bad.push(`${dialect}: sse only ${open} of ${SSE_CONNECTIONS} streams stayed open`);
    return bad;
  } finally {
    for (const s of streams) s.stream.close();
  }
}

function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function eachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Both processes hold a socket per connection (plus the database's files): say so up front, not as EMFILE. */
async function checkFileLimit(): Promise<void> {
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => '');
  const soft = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? Number.NaN);
  const needed = SSE_CONNECTIONS + USERS + UPLOADERS + 200;
  if (Number.isFinite(soft) && soft < needed) {
    throw new Error(`open files limit is ${soft}; this bench needs about ${needed}: run \`ulimit -n 4096\` first`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
