import { type Job, jobStatusLabel } from '@hookreel/contracts';
import { CheckCircle2Icon, ClockIcon, FilmIcon, Loader2Icon, XCircleIcon } from 'lucide-react';
import { Progress } from '@/components/ui/progress';
import { videoUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

export function JobStatusPill({ status }: { status: string }) {
  const tone =
    status === 'completed'
      ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300'
      : status === 'failed'
        ? 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300'
        : status === 'in_progress'
          ? 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300'
          : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200';
  const Icon =
    status === 'completed'
      ? CheckCircle2Icon
      : status === 'failed'
        ? XCircleIcon
        : status === 'in_progress'
          ? Loader2Icon
          : ClockIcon;
  return (
    <span
      data-testid="job-status"
      data-status={status}
      className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium', tone)}
    >
      <Icon className={cn('size-3.5', status === 'in_progress' && 'animate-spin')} aria-hidden="true" />
      {jobStatusLabel(status)}
    </span>
  );
}

/** 'Video #n' card with live status and progress; the whole card is a button to the job's details. */
export function PackJobCard({ job, index, onOpen }: { job: Job; index: number; onOpen: () => void }) {
  const n = job.variant_index ?? index + 1;
  const running = job.status !== 'completed' && job.status !== 'failed';
  const poster = videoUrl(job.poster_url);
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="pack-job-card"
      className="flex w-full items-center gap-4 rounded-xl border bg-card p-3 text-left transition-colors outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <span className="flex aspect-[9/16] w-14 shrink-0 items-center justify-center overflow-hidden rounded-md bg-muted text-muted-foreground">
        {poster ? (
          <img src={poster} alt="" className="size-full object-cover" />
        ) : (
          <FilmIcon className="size-5" aria-hidden="true" />
        )}
      </span>
      <span className="min-w-0 flex-1 space-y-2">
        <span className="flex items-center justify-between gap-2">
          <span className="font-medium">Video #{n}</span>
          <JobStatusPill status={job.status} />
        </span>
        {running ? (
          <span className="block">
            <Progress value={job.progress} aria-label={`Video #${n} progress`} />
            <span className="mt-1 block text-right text-xs text-muted-foreground tabular-nums">
              {Math.round(job.progress)}%
            </span>
          </span>
        ) : job.status === 'failed' && job.error ? (
          <span className="line-clamp-2 block text-xs text-destructive">{job.error}</span>
        ) : null}
      </span>
    </button>
  );
}
