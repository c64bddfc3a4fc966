import {
  ASPECT_SIZES,
  DEFAULT_ASPECT,
  MESSAGES,
  type Aspect,
  type Job,
  type JobAspectVideo,
} from '@hookreel/contracts';
import { ArrowLeftIcon, DownloadIcon, RefreshCwIcon, Trash2Icon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { AspectIcon } from '@/components/aspect-picker';
import { JobStatusBadge } from '@/components/job-status-badge';
import { MakeRealistic } from '@/components/make-realistic';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorDetail, isApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { staticUrl, videoUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { useDeleteJob } from '../api/delete-job';
import { useJob } from '../api/get-job';
import { useJobEvents } from '../api/job-events';
import { DeleteJobDialog } from '../components/delete-job-dialog';
import { JobProgress } from '../components/job-progress';
import { ContactSheetCard } from '../components/contact-sheet-card';
import { QualityReportCard } from '../components/quality-report';
import { ReportProblem } from '../components/report-problem';
import { formatDateTime } from '../lib/job-progress';
import { providerCostLine } from '../lib/provider-cost';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] items-center gap-3 py-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** The job's facts and log lines. */
function JobFacts({ job }: { job: Job }) {
  // What the providers cost is the operator's business (their margin), so only administrators see it here.
  const { isAdmin } = useAuth();
  const providerCost = isAdmin ? providerCostLine(job) : null;
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Job Information</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="divide-y">
            <Row label="Project">{job.project_deleted ? `${job.project_name} (deleted)` : job.project_name}</Row>
            {job.actor_name ? <Row label="Actor">{job.actor_name}</Row> : null}
            {job.hook_text ? <Row label="Hook">{job.hook_text}</Row> : null}
            {job.variant_id ? <Row label="Variant id">{job.variant_id}</Row> : null}
            <Row label="Quality">{job.render_quality === 'realistic' ? 'Realistic' : 'Draft'}</Row>
            <Row label="Status">
              <JobStatusBadge status={job.status} />
            </Row>
            <Row label="Progress">
              {job.status === 'completed' || job.status === 'failed' ? (
                <span>{job.status === 'completed' ? 100 : Math.round(job.progress)}%</span>
              ) : (
                <JobProgress job={job} />
              )}
            </Row>
            <Row label="Created">{formatDateTime(job.created_at)}</Row>
            <Row label="Last updated">{formatDateTime(job.updated_at)}</Row>
            {providerCost ? (
              <Row label="Provider cost">
                <span data-testid="job-provider-cost">{providerCost}</span>
              </Row>
            ) : null}
          </dl>
          {job.status === 'failed' && job.error ? (
            <p className="mt-3 rounded-md bg-destructive/5 p-3 text-sm text-destructive">{job.error}</p>
          ) : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Job Logs</CardTitle>
        </CardHeader>
        <CardContent>
          {job.logs.length === 0 ? (
            <p className="text-sm text-muted-foreground">No logs yet.</p>
          ) : (
            <pre
              data-testid="job-logs"
              className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap"
            >
              {job.logs.join('\n')}
            </pre>
          )}
        </CardContent>
      </Card>
    </>
  );
}

/** /jobs/{id}: 'Job Details'. */
export function JobDetailsPage() {
  const params = useParams();
  const id = Number(params.id);
  const navigate = useNavigate();
  const del = useDeleteJob();
  const deleting = del.isPending || del.isSuccess;
  const query = useJob(id, { active: !deleting });
  useJobEvents(Boolean(query.data) && !deleting);
  const [confirming, setConfirming] = useState(false);
  const [shownAspect, setShownAspect] = useState<Aspect>(DEFAULT_ASPECT);
  const job = query.data;

  const notFound =
    !Number.isInteger(id) ||
    id <= 0 ||
    (query.isError && isApiError(query.error) && [403, 404].includes(query.error.status));

  const back = (
    <Button variant="ghost" asChild className="-ml-3 mb-4">
      <Link to="/jobs">
        <ArrowLeftIcon aria-hidden="true" /> Back to Jobs
      </Link>
    </Button>
  );

  if (notFound) {
    return (
      <Page>
        {back}
        <EmptyState
          title={MESSAGES.jobs.notFound}
          action={<Button onClick={() => navigate('/jobs')}>Back to Jobs</Button>}
        />
      </Page>
    );
  }

  const onDelete = () => {
    setConfirming(false);
    del.mutate(id, {
      onSuccess: () => {
        toast.success(MESSAGES.jobs.deleted);
        navigate('/jobs');
      },
      onError: (e) => toast.error(errorDetail(e, MESSAGES.jobs.deleteFailed)),
    });
  };

  const video = videoUrl(job?.video_url);

  return (
    <Page className="max-w-5xl">
      {back}
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Job Details</h1>
          {job ? <p className="text-muted-foreground">{job.project_name}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
            <RefreshCwIcon className={cn(query.isFetching && !query.isPending && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
          <Button variant="destructive" onClick={() => setConfirming(true)} disabled={!job || del.isPending}>
            <Trash2Icon aria-hidden="true" /> Delete Job
          </Button>
        </div>
      </div>

      {query.isError && !job ? <ErrorBanner className="mb-6">{MESSAGES.jobs.loadFailed}</ErrorBanner> : null}
      {query.isRefetchError && job ? <ErrorBanner className="mb-6">{MESSAGES.jobs.updatesFailed}</ErrorBanner> : null}

      {query.isPending ? (
        <div className="grid gap-6 lg:grid-cols-2" aria-busy="true">
          <Skeleton className="h-64" />
          <Skeleton className="h-64" />
        </div>
      ) : job ? (
        video ? (
          // With a video, the video leads and its quality report sits beside it; the job's facts follow.
          <div className="grid gap-6 md:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
            <div className="space-y-3" data-testid="job-video">
              <AspectVideos job={job} shown={shownAspect} onShow={setShownAspect} />
              <MakeRealistic job={job} />
              {job ? <ReportProblem job={job} /> : null}
            </div>
            <div className="space-y-6">
              <QualityReportCard job={shownShape(job, shownAspect) ?? job} />
              <ContactSheetCard
                url={(shownShape(job, shownAspect) ?? job).contact_sheet_url}
                label={`${job.project_name} (${shownShape(job, shownAspect)?.aspect ?? DEFAULT_ASPECT})`}
              />
              <JobFacts job={job} />
            </div>
          </div>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <div className="space-y-6">
              <JobFacts job={job} />
            </div>
          </div>
        )
      ) : null}

      <DeleteJobDialog open={confirming} onOpenChange={setConfirming} onConfirm={onDelete} name={job?.project_name} />
    </Page>
  );
}

const FRAME_CLASS: Record<Aspect, string> = {
  '9:16': 'aspect-[9/16]',
  '4:5': 'aspect-[4/5]',
  '1:1': 'aspect-square',
};

/** The shape shown, when the job has it (a job rendered before shapes existed has only its own video). */
const shownShape = (job: Job, aspect: Aspect): JobAspectVideo | null =>
  job.aspects.find((a) => a.aspect === aspect) ?? null;

/**
 * The finished video in each frame shape it was exported in: a switch between the shapes (each with its frame
 * icon), the chosen one playing, and a download for every shape, named by the server (the shape's tag added).
 */
function AspectVideos({ job, shown, onShow }: { job: Job; shown: Aspect; onShow: (a: Aspect) => void }) {
  const shapes: JobAspectVideo[] = job.aspects.length
    ? job.aspects
    : job.video_url && job.download_url
      ? [
          {
            aspect: DEFAULT_ASPECT,
            ...ASPECT_SIZES[DEFAULT_ASPECT],
            video_url: job.video_url,
            poster_url: job.poster_url,
            download_url: job.download_url,
            quality: job.quality,
            report_url: job.report_url,
            contact_sheet_url: job.contact_sheet_url,
          },
        ]
      : [];
  const current = shapes.find((s) => s.aspect === shown) ?? shapes[0];
  if (!current) return null;
  return (
    <>
      {shapes.length > 1 ? (
        <div className="flex gap-2" role="group" aria-label="Frame shape shown">
          {shapes.map((s) => (
            <Button
              key={s.aspect}
              type="button"
              size="sm"
              variant={s.aspect === current.aspect ? 'default' : 'outline'}
              aria-pressed={s.aspect === current.aspect}
              onClick={() => onShow(s.aspect)}
              data-testid={`show-${s.aspect}`}
            >
              <AspectIcon aspect={s.aspect} className="size-4" /> {s.aspect}
            </Button>
          ))}
        </div>
      ) : null}
      <video
        key={current.aspect}
        controls
        playsInline
        preload="metadata"
        poster={staticUrl(current.poster_url)}
        src={videoUrl(current.video_url)}
        className={cn('mx-auto max-h-[75vh] w-full rounded-xl bg-black object-contain', FRAME_CLASS[current.aspect])}
        data-testid="job-video-player"
        data-aspect={current.aspect}
      >
        <track kind="captions" />
      </video>
      <div className="grid gap-2" data-testid="aspect-downloads">
        {shapes.map((s) => (
          <Button key={s.aspect} variant="outline" asChild className="w-full">
            <a href={videoUrl(s.download_url) ?? videoUrl(s.video_url)} download data-testid={`download-${s.aspect}`}>
              <DownloadIcon aria-hidden="true" />
              {shapes.length > 1 ? `Download ${s.aspect} (${s.width}x${s.height})` : 'Download video'}
            </a>
          </Button>
        ))}
      </div>
    </>
  );
}
