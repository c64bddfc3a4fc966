import { MESSAGES } from '@hookreel/contracts';
import { DownloadIcon, InfoIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { FormError } from '@/components/form-error';
import { Skeletons } from '@/components/layout/skeletons';
import { Button } from '@/components/ui/button';
import { usePackJobs } from '../../api/get-pack-jobs';
import type { StepProps } from '../../lib/wizard-data';
import { VideoTile } from '../video-tile';
import { StepFrame } from '../wizard-stepper';

export const WATERMARK_NOTE = 'Your free trial review includes a watermark by default.';

/** Step 7: watch the videos, download them, Finish. */
export function ReviewStep({ pack, advance, back, advancing }: StepProps) {
  const navigate = useNavigate();
  const jobs = usePackJobs(pack?.id ?? null);
  const videos = (jobs.data ?? []).filter((j) => j.status === 'completed' && j.video_url);
  if (!pack) return null;
  return (
    <StepFrame
      title="Review & Download"
      description="Watch your hook videos and download the pack."
      onBack={back}
      onContinue={() => void advance()}
      continueLabel="Finish"
      busy={advancing}
      extraActions={
        <Button
          type="button"
          variant="outline"
          onClick={() => navigate(`/hook-packs/${pack.id}/download`)}
          className="w-full sm:w-auto"
        >
          <DownloadIcon aria-hidden="true" /> Download Videos
        </Button>
      }
    >
      <p className="flex items-start gap-2 rounded-lg border border-amber-300/60 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
        <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> {WATERMARK_NOTE}
      </p>
      {jobs.isPending ? (
        <Skeletons
          count={4}
          className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4"
          item="aspect-[9/16] rounded-xl"
        />
      ) : jobs.isError ? (
        <FormError>{MESSAGES.jobs.loadListFailed}</FormError>
      ) : videos.length === 0 ? (
        <p className="rounded-xl border border-dashed p-10 text-center text-sm text-muted-foreground">
          No finished videos yet.
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          {videos.map((j, i) => (
            <li key={j.id}>
              <VideoTile job={j} index={i} />
            </li>
          ))}
        </ul>
      )}
    </StepFrame>
  );
}
