/** Tuning of the job runner. Defaults suit production; tests and operators may shorten them. */
export interface JobSettings {
  /** How long a claim lasts without a heartbeat; a crashed runner's job is picked up after this. */
  leaseMs: number;
  /** How often a running job extends its lease (well under leaseMs). */
  heartbeatMs: number;
  /** How often the embedded runner looks for claimable rows (it is also woken on enqueue). */
  pollMs: number;
  /** First retry delay; doubles on each attempt, capped at retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** On shutdown, how long running jobs may finish before they are handed back to the queue. */
  shutdownGraceMs: number;
  /** Scale mode: how often workers re-enqueue claimable rows the queue lost (crash, Redis hiccup). */
  sweepMs: number;
  /** How often a runner removes work folders no running job owns and stale upload folders (decision 181). */
  workSweepMs: number;
  /** Scale mode: BullMQ key prefix and pub/sub channel prefix. */
  redisPrefix: string;
}

const num = (v: string | undefined, fallback: number): number => {
  const n = v === undefined ? Number.NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export function jobSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): JobSettings {
  const leaseMs = num(env.JOB_LEASE_MS, 30_000);
  return {
    leaseMs,
    heartbeatMs: num(env.JOB_HEARTBEAT_MS, Math.max(100, Math.floor(leaseMs / 3))),
    pollMs: num(env.JOB_POLL_MS, 500),
    retryBaseMs: num(env.JOB_RETRY_BASE_MS, 5_000),
    retryMaxMs: num(env.JOB_RETRY_MAX_MS, 300_000),
    shutdownGraceMs: num(env.JOB_SHUTDOWN_GRACE_MS, 20_000),
    sweepMs: num(env.JOB_SWEEP_MS, 5_000),
    workSweepMs: num(env.JOB_WORK_SWEEP_MS, 60_000),
    redisPrefix: env.JOB_REDIS_PREFIX ?? 'hookreel',
  };
}

export const retryDelayMs = (s: JobSettings, attempt: number): number =>
  Math.min(s.retryMaxMs, s.retryBaseMs * 2 ** Math.max(0, attempt - 1));
