import type { Job } from '@hookreel/contracts';
import { Progress } from '@/components/ui/progress';
import { useNow } from '@/hooks/use-now';
import { displayProgress, formatRemaining, showsProgressBar } from '../lib/job-progress';

/** Progress bar for a running job (nothing for completed or failed jobs). */
export function JobProgress({
  job,
  className,
}: {
  job: Pick<Job, 'status' | 'progress' | 'created_at'> & { eta_seconds?: number | null };
  className?: string;
}) {
  const running = showsProgressBar(job.status);
  const now = useNow(5000, running);
  if (!running) return null;
  const p = displayProgress(job, now);
  return (
    <div className={className}>
      <div className="mb-1 flex justify-between text-xs text-muted-foreground">
        <span data-testid="job-time-left">
          {p.remainingMs !== undefined ? formatRemaining(p.remainingMs) : 'Progress'}
        </span>
        <span data-testid="job-progress-value">{p.percent}%</span>
      </div>
      <Progress value={p.percent} aria-label="Job progress" />
    </div>
  );
}
