import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import type { ProviderUsage } from '../media/port.ts';
import type { JobSettings } from './settings.ts';

/**
 * What a handler receives: the row's ids and its payload, already checked against the job's schema. Everything
 * else is reloaded from the database, since it may have changed since the job was queued.
 */
export interface ClaimedJob<P = unknown> {
  id: number;
  userId: number;
  name: string;
  payload: P;
  projectId: number | null;
  hookPackId: number | null;
  variantIndex: number | null;
  /** 1 on the first run, 2 on the first retry… */
  attempt: number;
  maxAttempts: number;
}

export interface JobContext {
  app: AppContext;
  /** Aborted when the job is deleted, its lease is lost or the process shuts down. Pass it to long work. */
  signal: AbortSignal;
  /** A scratch directory for this run, removed afterwards. */
  workDir: string;
  /** Persists progress (0–100) and optionally appends a log line people understand; publishes an update. */
  progress(percent: number, logLine?: string): Promise<void>;
  log(line: string): Promise<void>;
  /**
   * Records one billable provider call at once (not at the end, so a run that fails later still shows it): a log
   * line such as "Provider cost: fal avatar (…) 8.4 s" and the job's `cost` total, kept across attempts.
   */
  recordUsage(usage: ProviderUsage): Promise<void>;
  /**
   * A deterministic, unguessable storage key under this job's prefix (users/<uid>/jobs/<jobId>-<token>/<file>):
   * a retry overwrites the same key, never adds a second file.
   */
  outputKey(fileName: string): string;
}

/** What a successful run leaves on the row. Credits are captured by the runner, not the handler. */
export interface JobOutcome<R = unknown> {
  videoKey?: string | null;
  posterKey?: string | null;
  /** Small JSON-serialisable result for callers that poll the row (e.g. ids of created records). */
  result?: R;
  logLine?: string;
}

/**
 * One kind of job, defined by the area that owns it, beside its service (e.g. services/merge/jobs.ts). The runner
 * knows jobs only through this shape; job-definitions.ts lists every definition once.
 */
/**
 * Which runner slots a job uses. `render` is the paid work people wait for (videos, previews, merges);
 * `background` is work anyone can set off for free (webhook deliveries): it has its own concurrency in-process
 * and its own BullMQ queue, so a flood of it never delays a render (issue #33).
 */
export type JobLane = 'render' | 'background';
export const JOB_LANES: readonly JobLane[] = ['render', 'background'];

export interface JobDefinition<N extends string = string, P = unknown, R = unknown> {
  /** The value stored in jobs.name. Renaming it strands queued rows: add a new definition instead. */
  readonly name: N;
  /** The lane whose slots run it (see JobLane). */
  readonly lane: JobLane;
  /** Checked when the job is created (a bad payload is refused) and again when a runner claims the row. */
  readonly payload: z.ZodType<P>;
  /**
   * The job makes a user's video: the jobs screens list it, the time estimates count it and webhooks announce it
   * (ctx.jobs.videoJobNames).
   */
  readonly video?: true;
  handler(job: ClaimedJob<P>, ctx: JobContext): Promise<JobOutcome<R>>;
  /**
   * The feature's own writes that say "done" (e.g. a merge marked merged), made in the transaction that marks the
   * job completed: a run killed after its last write but before completing leaves no claim of success behind.
   */
  commit?(trx: Executor, job: ClaimedJob<P>, outcome: JobOutcome<R>): Promise<void>;
  /**
   * Runs in the transaction that marks the job failed for good — its last attempt failed, it failed permanently,
   * or it was found past its attempts after a crash (when the handler never runs) — to put the feature's own rows
   * in a final state, so no screen waits for them. The job's stored outputs are deleted afterwards. Not called
   * for a row whose payload no longer matches the schema: there is nothing trustworthy to act on.
   */
  onGaveUp?(trx: Executor, job: ClaimedJob<P>): Promise<void>;
  /**
   * The wait before retry number `attempt` (1 after the first failure), when the job keeps its own schedule
   * (webhook deliveries retry for a day); the runner's doubling backoff otherwise.
   */
  retryDelayMs?(attempt: number, settings: JobSettings): number;
}

/**
 * A definition with its name kept as a literal type, so job-definitions.ts can check every key against it.
 * Payload and result types are inferred from the schema and the handler.
 */
export function defineJob<N extends string, P, R = unknown>(def: JobDefinition<N, P, R>): JobDefinition<N, P, R> {
  return def;
}

// The runner handles every definition alike; the payload type is each definition's own business.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a map of definitions with different payloads
export type AnyJobDefinition = JobDefinition<string, any, any>;

/** Every job a process can run, by name; built in one place (job-definitions.ts) and checked at boot. */
export type JobDefinitionMap = Readonly<Record<string, AnyJobDefinition>>;

/** A failure that retrying cannot fix (missing project, invalid input): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** A payload that does not match its job's schema: refused when creating the job, a permanent failure when claimed. */
export class InvalidJobPayloadError extends PermanentJobError {
  override name = 'InvalidJobPayloadError';
}

/** Boot check: every key names its own definition, and each has a handler and a payload schema. */
export function assertJobDefinitions(map: Record<string, unknown>): asserts map is JobDefinitionMap {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(map)) {
    const def = value as Partial<AnyJobDefinition> | null;
    if (!def || typeof def.handler !== 'function') problems.push(`no handler for ${key}`);
    else if (def.name !== key) problems.push(`${key} is registered under another name (${String(def.name)})`);
    else if (!def.payload || typeof def.payload.safeParse !== 'function') problems.push(`no payload schema for ${key}`);
    else if (!def.lane || !JOB_LANES.includes(def.lane)) problems.push(`no lane for ${key}`);
  }
  if (problems.length) throw new Error(`Job definitions are inconsistent: ${problems.join('; ')}`);
}

/** The payload as stored on the row, refused when it does not match the job's schema. */
export function encodePayload<P>(def: JobDefinition<string, P>, payload: unknown): string {
  const parsed = def.payload.safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(`Invalid payload for ${def.name}: ${describe(parsed.error)}`);
  return JSON.stringify(parsed.data);
}

/** The row's payload, parsed and checked; a permanent failure when it is unreadable or no longer matches. */
export function decodePayload<P>(def: JobDefinition<string, P>, text: string): P {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidJobPayloadError(`The job's payload is unreadable`);
  }
  const parsed = def.payload.safeParse(value);
  if (!parsed.success) throw new InvalidJobPayloadError(`The job's payload is invalid: ${describe(parsed.error)}`);
  return parsed.data;
}

/**
 * A stored payload read outside the runner (for a screen, a price, a rule): the parsed value, or null when the row
 * is unreadable or no longer matches, so a reader never fails on an old row. Takes the job's definition, or a
 * schema of just the fields the reader needs when rows of several jobs share them.
 */
export function readPayload<P>(
  schema: JobDefinition<string, P> | z.ZodType<P>,
  row: { readonly payload: string },
): P | null {
  const type = 'handler' in schema ? schema.payload : schema;
  try {
    const parsed = type.safeParse(JSON.parse(row.payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The names of the definitions that run in `lane`. */
export function namesInLane(definitions: JobDefinitionMap, lane: JobLane): string[] {
  return Object.values(definitions)
    .filter((d) => d.lane === lane)
    .map((d) => d.name);
}

/** A job's lane by its stored name; an unknown name runs in the render lane, where it fails for good. */
export function laneOf(definitions: JobDefinitionMap, name: string): JobLane {
  return Object.hasOwn(definitions, name) ? definitions[name]!.lane : 'render';
}

const describe = (error: z.ZodError): string =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`)
    .join('; ');
