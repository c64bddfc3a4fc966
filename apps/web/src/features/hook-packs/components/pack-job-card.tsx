import type { Job } from '@hookreel/contracts';
import { FilmIcon } from 'lucide-react';
import { ContactSheetPeek } from '@/components/contact-sheet-peek';
import { JobStatusBadge } from '@/components/job-status-badge';
import { Progress } from '@/components/ui/progress';
import { videoUrl } from '@/lib/urls';

/**
 * 'Video #n' card with live status and progress; the whole card is a button to the job's details. Hovering or
 * focusing it shows the video's contact sheet.
 */
export function PackJobCard({ job, index, onOpen }: { job: Job; index: number; onOpen: () => void }) {
  const n = job.variant_index ?? index + 1;
  const running = job.status !== 'completed' && job.status !== 'failed';
  const poster = videoUrl(job.poster_url);
  return (
    <ContactSheetPeek url={job.contact_sheet_url} label={`Video #${n}`} placement="popover">
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
            <span className="min-w-0">
              <span className="block font-medium">
                Video #{n}
                {job.actor_name ? <span className="font-normal text-muted-foreground"> · {job.actor_name}</span> : null}
              </span>
              {job.variant_id ? (
                <span data-testid="variant-id" className="block font-mono text-xs font-semibold text-primary">
                  {job.variant_id}
                </span>
              ) : null}
              {job.hook_text ? (
                <span className="block truncate text-xs text-muted-foreground">“{job.hook_text}”</span>
              ) : null}
            </span>
            <JobStatusBadge status={job.status} />
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
    </ContactSheetPeek>
  );
}
