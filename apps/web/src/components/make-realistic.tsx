import { INSUFFICIENT_CREDITS, MESSAGES, type Job } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { WandSparklesIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CostTag } from '@/components/cost-tag';
import { Button } from '@/components/ui/button';
import { errorDetail } from '@/lib/api-client';
import { useCapabilities } from '@/lib/api/render-quality';
import { handlePaymentRequired } from '@/lib/payment';
import { cn } from '@/lib/utils';
import { useMakeRealistic } from '@/lib/api/make-realistic';

/**
 * "Make realistic" on a finished draft video (a project's or a hook pack's): the same script or hook line, actor
 * and placement rendered again through the providers as a new job, for the difference in price. Disabled, with
 * the reason, when the server lacks a provider that kind of video needs (a pack video also needs the images one).
 */
export function MakeRealistic({ job, className }: { job: Job; className?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const capabilities = useCapabilities();
  const make = useMakeRealistic();
  if (job.realistic_upgrade_cost === null) return null;
  const realistic = capabilities.data?.realistic;
  const availability = job.hook_pack_id !== null ? realistic?.hook_packs : realistic?.videos;
  const unavailable = availability ? !availability.available : true;
  const run = () =>
    make.mutate(job.id, {
      onSuccess: (id) => {
        toast.success(MESSAGES.jobs.madeRealistic);
        navigate(`/jobs/${id}`);
      },
      onError: (e) => {
        if (!handlePaymentRequired(e, INSUFFICIENT_CREDITS.videos, queryClient))
          toast.error(errorDetail(e, MESSAGES.jobs.queueFailed));
      },
    });
  return (
    <div className={cn('space-y-1', className)}>
      <Button
        variant="brand"
        className="w-full"
        disabled={unavailable || make.isPending}
        aria-describedby={availability && unavailable ? `realistic-off-${job.id}` : undefined}
        onClick={run}
      >
        <WandSparklesIcon aria-hidden="true" />
        {MESSAGES.jobs.makeRealistic} <CostTag credits={job.realistic_upgrade_cost} />
      </Button>
      {availability && unavailable ? (
        <p id={`realistic-off-${job.id}`} className="text-xs text-muted-foreground">
          {MESSAGES.realistic.unavailable} {availability.missing.join('; ')}.
        </p>
      ) : null}
    </div>
  );
}
