import { type Job, MESSAGES } from '@hookreel/contracts';
import { FilmIcon, PlusIcon, RefreshCwIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { useConfirmDelete } from '@/hooks/use-confirm-delete';
import { CardSkeleton, Skeletons } from '@/components/layout/skeletons';
import { ButtonLink } from '@/components/button-link';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useDeleteJob } from '../api/delete-job';
import { useJobs } from '../api/get-jobs';
import { useJobEvents } from '../api/job-events';
import { JobCard } from '../components/job-card';
import { NotifyBanner } from '../components/notify-banner';

// The delete dialog's code loads only when someone asks to delete, not with the list.
const DeleteJobDialog = lazy(() =>
  import('../components/delete-job-dialog').then((m) => ({ default: m.DeleteJobDialog })),
);

const GRID = 'grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

/** A job card while the list loads. */
const JOB_SKELETON = {
  testId: 'job-skeleton',
  media: 'aspect-[9/16] max-h-80 w-full rounded-none sm:max-h-none',
  body: 'space-y-2 p-4',
  lines: ['h-4 w-2/3', 'h-3 w-1/3', 'h-2 w-full'],
};

/** /jobs and /generated-videos: 'Generated Videos'. */
export function JobsPage() {
  const navigate = useNavigate();
  const jobs = useJobs();
  useJobEvents();
  const del = useDeleteJob();
  const deletion = useConfirmDelete<Job>((id, options) => del.mutate(id, options), {
    deleted: MESSAGES.jobs.deleted,
    failed: MESSAGES.jobs.deleteFailed,
  });

  const refreshing = jobs.isFetching && !jobs.isPending;

  return (
    <Page>
      <PageHeader
        title="Generated Videos"
        description="Track your video generation jobs and watch the results."
        actions={
          <Button variant="outline" onClick={() => void jobs.refetch()} disabled={jobs.isFetching}>
            <RefreshCwIcon className={cn(refreshing && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
        }
      />
      <NotifyBanner />
      {jobs.isError && !jobs.data ? <ErrorBanner className="mb-6">{MESSAGES.jobs.loadListFailed}</ErrorBanner> : null}

      {jobs.isPending ? (
        <Skeletons
          count={8}
          className={GRID}
          label="Loading jobs"
          item={(i) => <CardSkeleton key={i} {...JOB_SKELETON} />}
        />
      ) : jobs.data && jobs.data.length === 0 ? (
        <EmptyState
          icon={<FilmIcon className="size-6" aria-hidden="true" />}
          title={MESSAGES.jobs.empty}
          action={
            <ButtonLink to="/projects" variant="brand">
              <PlusIcon aria-hidden="true" /> Go to Projects
            </ButtonLink>
          }
        />
      ) : jobs.data ? (
        <div className={GRID}>
          {jobs.data.map((job) => (
            <JobCard
              key={job.id}
              job={job}
              deleting={del.isPending && del.variables === job.id}
              onView={(j) => navigate(`/jobs/${j.id}`)}
              onDelete={deletion.ask}
            />
          ))}
        </div>
      ) : null}

      {deletion.pending !== null ? (
        <Suspense fallback={null}>
          <DeleteJobDialog
            open
            onOpenChange={(o) => !o && deletion.cancel()}
            onConfirm={deletion.confirm}
            name={deletion.pending.project_name}
          />
        </Suspense>
      ) : null}
    </Page>
  );
}
