import { jobStatusLabel } from '@hookreel/contracts';
import { CheckCircle2Icon, ClockIcon, Loader2Icon, XCircleIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Status with its icon: Queued/Waiting (clock), Processing (spinner), Done (check), Failed (red cross). */
export function JobStatusBadge({ status, className }: { status: string; className?: string }) {
  const label = jobStatusLabel(status);
  const tone =
    status === 'completed'
      ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300'
      : status === 'failed'
        ? 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300'
        : status === 'in_progress'
          ? 'bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300'
          : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200';
  return (
    <span
      data-testid="job-status"
      data-status={status}
      className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium', tone, className)}
    >
      {status === 'completed' ? (
        <CheckCircle2Icon className="size-3.5" aria-hidden="true" />
      ) : status === 'failed' ? (
        <XCircleIcon className="size-3.5 text-red-600" aria-hidden="true" data-testid="failed-icon" />
      ) : status === 'in_progress' ? (
        <Loader2Icon className="size-3.5 animate-spin" aria-hidden="true" />
      ) : (
        <ClockIcon className="size-3.5" aria-hidden="true" />
      )}
      {label}
    </span>
  );
}
