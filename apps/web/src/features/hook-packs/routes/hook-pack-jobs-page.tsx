import { MESSAGES, realisticUpgradeUnderway } from '@hookreel/contracts';
import { ArrowLeftIcon, DownloadIcon, FilmIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Skeletons } from '@/components/layout/skeletons';
import { ButtonLink } from '@/components/button-link';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { MakeRealistic } from '@/components/make-realistic';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { allJobsDone, usePackJobs } from '../api/get-pack-jobs';
import { PackJobCard } from '../components/pack-job-card';
import { jobCounts, packProgress } from '../lib/progress';

/**
 * The job list's headline. A draft whose "Make realistic" is queued or running is finished as a job, but the
 * video the pack will keep is still being made, so the headline says so instead of calling the pack done.
 */
function headline(counts: ReturnType<typeof jobCounts>, done: boolean, upgrading: number): string {
  if (!done) return `${counts.completed} of ${counts.total} videos done`;
  if (upgrading > 0 && counts.total === 1 && counts.failed === 0) return 'Making the video realistic…';
  const base =
    counts.failed > 0
      ? `${counts.completed} of ${counts.total} videos done, ${counts.failed} failed`
      : counts.total === 1
        ? 'The video is done'
        : `All ${counts.total} videos are done`;
  if (upgrading === 0) return base;
  return `${base}; making ${upgrading} of them realistic…`;
}

/** /hook-packs/jobs/{id}: one card per video with live status, polled every second until all are done. */
export function HookPackJobsPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const packId = Number(id);
  const valid = Number.isInteger(packId) && packId > 0;
  const jobs = usePackJobs(valid ? packId : null);
  const list = jobs.data ?? [];
  const done = allJobsDone(list);
  const counts = jobCounts(list);

  useEffect(() => {
    if (jobs.isError) console.error(MESSAGES.jobs.loadListFailed, jobs.error);
  }, [jobs.isError, jobs.error]);

  return (
    <Page className="max-w-4xl">
      <PageHeader
        title="Video Generation"
        description="Each video of your hook pack renders as its own job. This page updates live."
        actions={
          <>
            <Button variant="outline" onClick={() => navigate('/hook-packs')}>
              <ArrowLeftIcon aria-hidden="true" /> Back
            </Button>
            {done && counts.completed > 0 ? (
              <ButtonLink to={`/hook-packs/${packId}/download`} variant="brand">
                <DownloadIcon aria-hidden="true" /> Download Videos
              </ButtonLink>
            ) : null}
          </>
        }
      />
      {!valid || (jobs.isError && !jobs.data) ? (
        <ErrorBanner className="mb-6">{MESSAGES.jobs.loadListFailed}</ErrorBanner>
      ) : null}
      {/* The cards are shown but the latest status poll failed; the next poll clears this. */}
      {jobs.isRefetchError && jobs.data ? (
        <ErrorBanner className="mb-6">{MESSAGES.jobs.statusFailed}</ErrorBanner>
      ) : null}
      {valid && jobs.isPending ? (
        <Skeletons count={4} className="space-y-3" label="Loading videos" item="h-28 w-full rounded-xl" />
      ) : jobs.isSuccess && list.length === 0 ? (
        <EmptyState
          icon={<FilmIcon className="size-6" aria-hidden="true" />}
          title="No videos yet"
          description="Videos appear here once you start generating them from the hook pack."
          action={
            <ButtonLink to={`/hook-packs/new/${packId}`} variant="outline">
              Open Hook Pack
            </ButtonLink>
          }
        />
      ) : list.length > 0 ? (
        <>
          <div className="mb-6 space-y-2 rounded-xl border p-4" aria-live="polite">
            <div className="flex justify-between text-sm">
              <span className="font-medium" data-testid="pack-jobs-headline">
                {headline(counts, done, list.filter(realisticUpgradeUnderway).length)}
              </span>
              <span className="tabular-nums">{packProgress(list)}%</span>
            </div>
            <Progress value={packProgress(list)} aria-label="Overall progress" />
          </div>
          <ul className="grid gap-3 sm:grid-cols-2">
            {list.map((job, i) => (
              <li key={job.id} className="space-y-2">
                <PackJobCard job={job} index={i} onOpen={() => navigate(`/jobs/${job.id}`)} />
                <MakeRealistic job={job} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Page>
  );
}
