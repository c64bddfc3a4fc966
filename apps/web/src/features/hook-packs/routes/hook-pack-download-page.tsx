import { MESSAGES } from '@hookreel/contracts';
import { ArrowLeftIcon, FileArchiveIcon, FilmIcon, Loader2Icon } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { Skeletons } from '@/components/layout/skeletons';
import { ButtonLink } from '@/components/button-link';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { errorDetail } from '@/lib/api-client';
import { useDownloadPackZip } from '../api/download-pack';
import { useHookPack } from '../api/get-hook-pack';
import { usePackJobs } from '../api/get-pack-jobs';
import { WATERMARK_NOTE } from '../components/steps/review-step';
import { VideoTile } from '../components/video-tile';
import { packName } from '../lib/list';

/** /hook-packs/{id}/download: the pack's videos, each playable and downloadable, plus the whole pack as a zip. */
export function HookPackDownloadPage() {
  const { id } = useParams();
  const packId = Number(id);
  const valid = Number.isInteger(packId) && packId > 0;
  const pack = useHookPack(valid ? packId : null);
  const jobs = usePackJobs(valid ? packId : null);
  const zip = useDownloadPackZip();
  const videos = (jobs.data ?? []).filter((j) => j.status === 'completed' && j.video_url);
  const stillRunning = (jobs.data ?? []).some((j) => j.status === 'queued' || j.status === 'in_progress');

  const downloadAll = () =>
    zip.mutate(packId, { onError: (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.generic)) });

  return (
    <Page>
      <PageHeader
        title="Download Videos"
        description={
          pack.data
            ? `${packName(pack.data.name)} — ${videos.length} video${videos.length === 1 ? '' : 's'}`
            : 'Your hook pack videos'
        }
        actions={
          <>
            <ButtonLink to={valid ? `/hook-packs/jobs/${packId}` : '/hook-packs'} variant="outline">
              <ArrowLeftIcon aria-hidden="true" /> Back
            </ButtonLink>
            <Button variant="brand" onClick={downloadAll} disabled={!valid || videos.length === 0 || zip.isPending}>
              {zip.isPending ? (
                <Loader2Icon className="animate-spin" aria-hidden="true" />
              ) : (
                <FileArchiveIcon aria-hidden="true" />
              )}
              {zip.isPending ? 'Preparing zip...' : 'Download All (.zip)'}
            </Button>
          </>
        }
      />
      <p className="mb-6 text-sm text-muted-foreground">
        The zip holds every MP4 with its SRT and VTT captions and a manifest.csv. {WATERMARK_NOTE}
      </p>
      {!valid || jobs.isError ? <ErrorBanner className="mb-6">{MESSAGES.jobs.loadListFailed}</ErrorBanner> : null}
      {stillRunning ? (
        <p className="mb-6 text-sm">
          Some videos are still generating.{' '}
          <Link className="text-primary underline-offset-4 hover:underline" to={`/hook-packs/jobs/${packId}`}>
            See progress
          </Link>
        </p>
      ) : null}
      {valid && jobs.isPending ? (
        <Skeletons
          count={8}
          className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4"
          label="Loading videos"
          item="aspect-[9/16] rounded-xl"
        />
      ) : jobs.isSuccess && videos.length === 0 ? (
        <EmptyState
          icon={<FilmIcon className="size-6" aria-hidden="true" />}
          title="No videos ready yet"
          description="Finished videos of this hook pack appear here."
          action={
            <ButtonLink to={`/hook-packs/jobs/${packId}`} variant="outline">
              View progress
            </ButtonLink>
          }
        />
      ) : (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" aria-label="Videos">
          {videos.map((job, i) => (
            <li key={job.id}>
              <VideoTile job={job} index={i} downloadable />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
