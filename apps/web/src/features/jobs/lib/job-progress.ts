import { isTerminalJobStatus, type Job, TIMINGS } from '@hookreel/contracts';

export interface DisplayProgress {
  /** 0–100, what the bar shows. */
  percent: number;
  /** True when the figure is the 22-minute estimate rather than the job's own progress. */
  estimated: boolean;
  /** Milliseconds left in the estimate (only when estimated). */
  remainingMs?: number;
}

/** Whether the card shows a progress bar: every job that is neither completed nor failed. */
export const showsProgressBar = (status: string): boolean => !isTerminalJobStatus(status);

/**
 * The progress to show. Real progress from the job wins; a queued or in-progress job reporting 0 gets the
 * estimate: elapsed since created_at over TIMINGS.estimatedJobDurationMs, capped at 99% until done.
 */
export function displayProgress(job: Pick<Job, 'status' | 'progress' | 'created_at'>, now: number): DisplayProgress {
  if (job.status === 'completed') return { percent: 100, estimated: false };
  const real = Math.max(0, Math.min(100, job.progress));
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
  const minutes = Math.ceil(ms / 60_000);
  if (minutes <= 1) return 'Almost done';
  return `About ${minutes} min left`;
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
