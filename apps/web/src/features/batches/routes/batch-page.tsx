import { type Batch, type BatchRow, creditsLabel, withCost } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, DownloadIcon, Loader2Icon } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { ButtonLink } from '@/components/button-link';
import { JobStatusBadge } from '@/components/job-status-badge';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { errorDetail } from '@/lib/api-client';
import { handlePaymentRequired } from '@/lib/payment';
import { staticUrl, videoUrl } from '@/lib/urls';
import { useBatch, useConfirmBatch, useDownloadBatchZip } from '../api/batches';
import { BatchErrorList, BatchRowsTable } from '../components/batch-rows-table';
import { isRepeatClick } from '@/lib/repeat-click';

/** /batches/{id}: the checked rows and the price before confirming; once queued, one progress view for the batch. */
export function BatchPage() {
  const id = Number(useParams().id);
  const batch = useBatch(id);
  if (batch.isError) {
    return (
      <Page>
        <PageHeader title="Batch not found" />
        <ButtonLink to="/batches" variant="outline">
          Back to batches
        </ButtonLink>
      </Page>
    );
  }
  if (!batch.data) {
    return (
      <Page>
        <Skeleton className="mb-6 h-10 w-72" />
        <Skeleton className="h-64 w-full" />
      </Page>
    );
  }
  return batch.data.status === 'draft' ? <Review batch={batch.data} /> : <Progressing batch={batch.data} />;
}

const BackLink = () => (
  <Link
    to="/batches"
    className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
  >
    <ArrowLeftIcon className="size-4" aria-hidden="true" /> Batches
  </Link>
);

function Review({ batch }: { batch: Batch }) {
  const confirm = useConfirmBatch();
  const queryClient = useQueryClient();
  const invalid = batch.rows.length - batch.valid_rows;
  const onConfirm = () =>
    confirm.mutate(batch.id, {
      onError: (e) => {
        if (!handlePaymentRequired(e, 'Not enough credits for this batch.', queryClient)) {
          toast.error(errorDetail(e, 'The batch could not be queued.'));
        }
      },
    });
  return (
    <Page>
      <BackLink />
      <PageHeader title={batch.name} description="Check the rows. Nothing is charged until you confirm." />
      <div
        data-testid="batch-summary"
        className="mb-6 flex flex-col gap-4 rounded-2xl border bg-card p-5 shadow-sm sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="space-y-1">
          <p className="text-lg font-semibold">
            {batch.valid_rows} of {batch.rows.length} rows ready
          </p>
          <p className="text-sm text-muted-foreground">
            Total{' '}
            <span data-testid="batch-total" className="font-semibold text-foreground">
              {creditsLabel(batch.total_price)}
            </span>
            {invalid > 0 ? ` · ${invalid} ${invalid === 1 ? 'row has' : 'rows have'} errors and will be skipped` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/batches" variant="outline">
            Upload again
          </ButtonLink>
          <Button
            variant="brand"
            size="lg"
            disabled={batch.valid_rows === 0 || confirm.isPending}
            onClick={(e) => {
              if (!isRepeatClick(e)) onConfirm();
            }}
          >
            {confirm.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            {withCost(`Confirm ${batch.valid_rows} ${batch.valid_rows === 1 ? 'video' : 'videos'}`, batch.total_price)}
          </Button>
        </div>
      </div>
      <div className="space-y-4">
        <BatchErrorList rows={batch.rows} />
        <BatchRowsTable rows={batch.rows} />
      </div>
    </Page>
  );
}

function Progressing({ batch }: { batch: Batch }) {
  const download = useDownloadBatchZip();
  const queued = batch.rows.filter((r) => r.job);
  const { completed, failed, percent } = batch.progress;
  const done = completed + failed === queued.length;
  return (
    <Page>
      <BackLink />
      <PageHeader
        title={batch.name}
        description={
          done ? 'Every video of this batch is finished.' : 'Your videos are being made. You can leave this page.'
        }
        actions={
          <Button
            variant="brand"
            disabled={!batch.zip_url || download.isPending}
            onClick={() =>
              download.mutate(batch.id, {
                onError: (e) => toast.error(errorDetail(e, 'The zip could not be downloaded.')),
              })
            }
          >
            {download.isPending ? (
              <Loader2Icon className="animate-spin" aria-hidden="true" />
            ) : (
              <DownloadIcon aria-hidden="true" />
            )}
            {done ? 'Download all (zip)' : `Download ${completed} finished (zip)`}
          </Button>
        }
      />
      {!done && batch.zip_url ? (
        <p className="-mt-2 mb-4 text-sm text-muted-foreground" data-testid="batch-zip-partial">
          The zip holds the {completed} {completed === 1 ? 'video' : 'videos'} finished so far; the other{' '}
          {queued.length - completed - failed} {queued.length - completed - failed === 1 ? 'is' : 'are'} still
          rendering. Download again when they are done.
        </p>
      ) : null}
      <div className="mb-6 rounded-2xl border bg-card p-5 shadow-sm" data-testid="batch-progress">
        <div className="mb-2 flex flex-wrap justify-between gap-2 text-sm">
          <span className="font-medium">
            {completed} of {queued.length} {queued.length === 1 ? 'video' : 'videos'} done
            {failed ? ` · ${failed} failed` : ''}
          </span>
          <span data-testid="batch-percent">{percent}%</span>
        </div>
        <Progress value={percent} aria-label="Batch progress" />
      </div>
      <ul className="grid gap-3" aria-label="Videos">
        {queued.map((row) => (
          <RowJob key={row.id} row={row} />
        ))}
      </ul>
    </Page>
  );
}

function RowJob({ row }: { row: BatchRow }) {
  const job = row.job!;
  const running = job.status === 'queued' || job.status === 'in_progress';
  // The row's video is the frame shape it asked for; 9:16 is the job's own video.
  const shape = job.aspects.find((a) => a.aspect === row.values.aspect);
  const downloadUrl = shape?.download_url ?? job.download_url;
  return (
    <li
      data-testid="batch-job"
      data-line={row.line}
      className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-xs sm:flex-row sm:items-center"
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        {job.poster_url ? (
          <img src={staticUrl(job.poster_url)} alt="" className="h-16 w-9 shrink-0 rounded object-cover" />
        ) : row.product_url ? (
          <img
            src={staticUrl(row.product_url)}
            alt=""
            className="size-12 shrink-0 rounded border bg-white object-contain"
          />
        ) : null}
        <div className="min-w-0">
          <p className="font-medium">
            Line {row.line} · {row.values.actor_name}
          </p>
          <p className="truncate text-sm text-muted-foreground">{row.values.hook || row.values.script}</p>
        </div>
      </div>
      <div className="flex items-center gap-3 sm:w-80">
        <JobStatusBadge status={job.status} />
        {running ? (
          <Progress value={job.progress} className="flex-1" aria-label={`Line ${row.line} progress`} />
        ) : job.status === 'completed' && downloadUrl ? (
          <Button asChild size="sm" variant="outline" className="ml-auto">
            <a href={videoUrl(downloadUrl)} download aria-label={`Download (${row.values.aspect})`}>
              <DownloadIcon aria-hidden="true" /> Download {row.values.aspect}
            </a>
          </Button>
        ) : job.status === 'failed' ? (
          <span className="line-clamp-2 flex-1 text-xs text-red-700">{job.error ?? 'Failed'}</span>
        ) : null}
        <Link to={`/jobs/${job.id}`} className="text-sm text-primary hover:underline">
          Details
        </Link>
      </div>
    </li>
  );
}
