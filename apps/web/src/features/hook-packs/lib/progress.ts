import { formatDuration, type Job, TIMINGS } from '@hookreel/contracts';

/** Where the server has said nothing yet: time-based progress, capped at TIMINGS.simulatedProgressCap (90%). */
export const SIMULATED_DURATION_MS = 150_000; // 'typically 2-3 minutes'

export function simulatedProgress(startedAt: number, now: number): number {
  const p = ((now - startedAt) / SIMULATED_DURATION_MS) * 100;
  return Math.max(0, Math.min(TIMINGS.simulatedProgressCap, Math.round(p)));
}

/** Real progress over a pack's jobs: completed and failed count as finished. */
export function packProgress(jobs: readonly Pick<Job, 'status' | 'progress'>[]): number {
  if (jobs.length === 0) return 0;
  const sum = jobs.reduce((acc, j) => acc + (j.status === 'completed' || j.status === 'failed' ? 100 : j.progress), 0);
  return Math.round(sum / jobs.length);
}

export function jobCounts(jobs: readonly Pick<Job, 'status'>[]) {
  return {
    total: jobs.length,
    completed: jobs.filter((j) => j.status === 'completed').length,
    failed: jobs.filter((j) => j.status === 'failed').length,
  };
}

/**
 * Seconds until the whole pack is ready: the latest of its unfinished jobs' estimates, which the server derives
 * from the render times it measured and the queue ahead. Null while it has measured nothing (or all are done).
 */
export function packSecondsLeft(jobs: readonly Pick<Job, 'status' | 'eta_seconds'>[]): number | null {
  const etas = jobs
    .filter((j) => j.status === 'queued' || j.status === 'in_progress')
    .map((j) => j.eta_seconds)
    .filter((s): s is number => s !== null);
  return etas.length > 0 ? Math.max(...etas) : null;
}

/**
 * Said of Draft videos before this server has timed one: how long they take depends on this machine and its
 * queue, so no figure is given until the server measures it.
 */
export const DRAFT_WAIT_UNMEASURED = 'The time left shows once this server has timed a video.';

/** Said of Realistic videos before this server has timed one: their time is the providers', not ours. */
export const REALISTIC_WAIT_UNMEASURED = 'Realistic videos take as long as the providers need; none timed here yet.';

/**
 * What the pack's wait is said to be: measured when there is a measurement; otherwise no figure, for Draft or
 * Realistic videos (the server times those apart).
 */
export function packWaitText(jobs: readonly Pick<Job, 'status' | 'eta_seconds' | 'render_quality'>[]): string {
  const left = packSecondsLeft(jobs);
  if (left !== null) return `About ${formatDuration(left)} left, measured on this server.`;
  const realistic = jobs.some(
    (j) => (j.status === 'queued' || j.status === 'in_progress') && j.render_quality === 'realistic',
  );
  return realistic ? REALISTIC_WAIT_UNMEASURED : DRAFT_WAIT_UNMEASURED;
}
