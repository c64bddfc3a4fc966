import { isTerminalJobStatus, type Job, TIMINGS } from '@hookreel/contracts';

export interface DisplayProgress {
  /** 0–100, what the bar shows. */
  percent: number;
  /** True when the figure is the 22-minute estimate rather than the job's own progress. */
  estimated: boolean;
  /** Milliseconds left: measured (eta_seconds from the server) or, before any measurement, the fixed estimate. */
  remainingMs?: number;
}

/** Whether the card shows a progress bar: every job that is neither completed nor failed. */
export const showsProgressBar = (status: string): boolean => !isTerminalJobStatus(status);

/**
 * The progress to show. Real progress from the job wins; a queued or in-progress job reporting 0 gets the
 * estimate: elapsed since created_at over TIMINGS.estimatedJobDurationMs, capped at 99% until done.
 */
export function displayProgress(
  job: Pick<Job, 'status' | 'progress' | 'created_at'> & { eta_seconds?: number | null },
  now: number,
): DisplayProgress {
  if (job.status === 'completed') return { percent: 100, estimated: false };
  const real = Math.max(0, Math.min(100, job.progress));
  // Measured: the server's estimate from recent render times and the queue ahead (docs/decisions/110).
  if (typeof job.eta_seconds === 'number' && (job.status === 'in_progress' || job.status === 'queued')) {
    return { percent: Math.round(real), estimated: false, remainingMs: job.eta_seconds * 1000 };
  }
  if (real > 0 || (job.status !== 'in_progress' && job.status !== 'queued')) {
    return { percent: Math.round(real), estimated: false };
  }
  const created = Date.parse(job.created_at);
  const elapsed = Number.isFinite(created) ? Math.max(0, now - created) : 0;
  const total = TIMINGS.estimatedJobDurationMs;
  const percent = Math.min(TIMINGS.estimatedProgressCap, Math.floor((elapsed / total) * 100));
  return { percent, estimated: true, remainingMs: Math.max(0, total - elapsed) };
}

export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds <= 5) return 'Almost done';
  if (seconds < 90) return `About ${Math.ceil(seconds / 5) * 5} s left`;
  return `About ${Math.ceil(ms / 60_000)} min left`;
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
