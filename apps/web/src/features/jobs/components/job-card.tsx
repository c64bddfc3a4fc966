import type { Job } from '@hookreel/contracts';
import { EyeIcon, FilmIcon, MoreVerticalIcon, Trash2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { AspectList } from '@/components/aspect-picker';
import { ContactSheetPeek } from '@/components/contact-sheet-peek';
import { JobStatusBadge } from '@/components/job-status-badge';
import { UpgradeStatus } from '@/components/make-realistic';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { staticUrl } from '@/lib/urls';
import { formatDateTime } from '../lib/job-progress';
import { JobProgress } from './job-progress';

export interface JobCardProps {
  job: Job;
  onView: (job: Job) => void;
  onDelete: (job: Job) => void;
  deleting?: boolean;
}

export function JobCard({ job, onView, onDelete, deleting }: JobCardProps) {
  const poster = staticUrl(job.poster_url);
  return (
    <article
      data-testid="job-card"
      className="group relative flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm transition-shadow hover:shadow-md"
    >
      <ContactSheetPeek url={job.contact_sheet_url} label={job.project_name}>
        <Link
          to={`/jobs/${job.id}`}
          className="relative block aspect-[9/16] max-h-80 w-full bg-muted outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:max-h-none"
        >
          {poster ? (
            <img
              src={poster}
              alt={`${job.project_name} poster`}
              loading="lazy"
              className="absolute inset-0 size-full object-cover"
            />
          ) : (
            <span className="absolute inset-0 flex items-center justify-center text-muted-foreground">
              <FilmIcon className="size-10" aria-hidden="true" />
            </span>
          )}
          <span className="absolute top-2 left-2">
            <JobStatusBadge status={job.status} className="shadow-sm" />
          </span>
        </Link>
      </ContactSheetPeek>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate font-semibold" title={job.project_name}>
              {job.project_name}
            </h3>
            {job.project_deleted ? (
              <p className="text-xs text-muted-foreground" data-testid="job-card-project-deleted">
                Project deleted · the video is kept
              </p>
            ) : null}
            {job.actor_name || job.hook_text ? (
              <p className="truncate text-sm text-muted-foreground" data-testid="job-card-who">
                {[job.variant_id, job.actor_name, job.hook_text ? `“${job.hook_text}”` : null]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            ) : null}
            {job.aspects.length > 1 ? <AspectList aspects={job.aspects.map((a) => a.aspect)} /> : null}
            <p className="text-xs text-muted-foreground">
              <time dateTime={job.created_at}>{formatDateTime(job.created_at)}</time>
            </p>
          </div>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon-sm" aria-label={`Actions for job ${job.id}`} disabled={deleting}>
                <MoreVerticalIcon />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => onView(job)}>
                <EyeIcon /> View Details
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem variant="destructive" onSelect={() => onDelete(job)}>
                <Trash2Icon /> Delete Job
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
        <JobProgress job={job} />
        {job.realistic_upgrade ? <UpgradeStatus upgrade={job.realistic_upgrade} /> : null}
      </div>
    </article>
  );
}
