import { INSUFFICIENT_CREDITS, MESSAGES, type Job, type RealisticUpgrade } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { WandSparklesIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CostTag } from '@/components/cost-tag';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { errorDetail } from '@/lib/api-client';
import { useCapabilities } from '@/lib/api/render-quality';
import { handlePaymentRequired } from '@/lib/payment';
import { cn } from '@/lib/utils';
import { useMakeRealistic } from '@/lib/api/make-realistic';
import { isRepeatClick } from '@/lib/repeat-click';

/**
 * "Make realistic" on a finished draft video (a project's or a hook pack's): the same script or hook line, actor
 * and placement rendered again through the providers as a new job, for the difference in price. Disabled, with
 * the reason, when the server lacks a provider that kind of video needs (a pack video also needs the images one).
 */
export function MakeRealistic({ job, className }: { job: Job; className?: string }) {
  if (job.realistic_upgrade_cost === null) {
    return job.realistic_upgrade ? <UpgradeStatus upgrade={job.realistic_upgrade} className={className} /> : null;
  }
  return (
    <div className={cn('space-y-2', className)}>
      {job.realistic_upgrade ? <UpgradeStatus upgrade={job.realistic_upgrade} /> : null}
      <MakeRealisticButton job={job} cost={job.realistic_upgrade_cost} />
    </div>
  );
}

/**
 * A draft video's "Make realistic" (of a hook pack or a project) while it waits or runs (its progress, live while
 * the screen polls), or after it failed (why; the button is offered again beside it). Opens the upgrade's own job.
 */
export function UpgradeStatus({ upgrade, className }: { upgrade: RealisticUpgrade; className?: string }) {
  const failed = upgrade.status === 'failed';
  return (
    <div
      data-testid="realistic-upgrade"
      data-status={upgrade.status}
      aria-live="polite"
      className={cn('space-y-1 rounded-lg border px-3 py-2 text-xs', failed && 'border-destructive/40', className)}
    >
      {failed ? (
        <>
          <p className="font-medium text-destructive">{MESSAGES.jobs.upgradeFailed}</p>
          {upgrade.error ? <p className="line-clamp-2 text-muted-foreground">{upgrade.error}</p> : null}
        </>
      ) : upgrade.status === 'queued' ? (
        <p className="flex items-center gap-1.5 font-medium">
          <WandSparklesIcon className="size-3.5" aria-hidden="true" />
          {MESSAGES.jobs.upgradeQueued}
        </p>
      ) : (
        <>
          <p className="flex items-center justify-between gap-2 font-medium">
            <span className="flex items-center gap-1.5">
              <WandSparklesIcon className="size-3.5" aria-hidden="true" />
              {MESSAGES.jobs.upgradeRunning}
            </span>
            <span className="tabular-nums text-muted-foreground">{Math.round(upgrade.progress)}%</span>
          </p>
          <Progress value={upgrade.progress} aria-label="Making realistic progress" />
        </>
      )}
      <Link to={`/jobs/${upgrade.job_id}`} className="inline-block text-primary underline-offset-2 hover:underline">
        {MESSAGES.jobs.upgradeOpen}
      </Link>
    </div>
  );
}

function MakeRealisticButton({ job, cost }: { job: Job; cost: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const capabilities = useCapabilities();
  const make = useMakeRealistic();
  const realistic = capabilities.data?.realistic;
  const availability = job.hook_pack_id !== null ? realistic?.hook_packs : realistic?.videos;
  const unavailable = availability ? !availability.available : true;
  // Awaited, not mutate's own callbacks: the refetch after the upgrade is queued swaps this button for the
  // upgrade's status, and an unmounted button's mutate callbacks never run, so the user stayed on the draft.
  const run = async () => {
    let id: number;
    try {
      id = await make.mutateAsync(job.id);
    } catch (e) {
      if (!handlePaymentRequired(e, INSUFFICIENT_CREDITS.videos, queryClient))
        toast.error(errorDetail(e, MESSAGES.jobs.queueFailed));
      return;
    }
    toast.success(MESSAGES.jobs.madeRealistic);
    navigate(`/jobs/${id}`);
  };
  return (
    <div className="space-y-1">
      <Button
        variant="brand"
        className="w-full"
        disabled={unavailable || make.isPending}
        aria-describedby={availability && unavailable ? `realistic-off-${job.id}` : undefined}
        onClick={(e) => {
          if (!isRepeatClick(e)) void run();
        }}
      >
        <WandSparklesIcon aria-hidden="true" />
        {MESSAGES.jobs.makeRealistic} <CostTag credits={cost} />
      </Button>
      {availability && unavailable ? (
        <p id={`realistic-off-${job.id}`} className="text-xs text-muted-foreground">
          {MESSAGES.realistic.unavailable} {availability.missing.join('; ')}.
        </p>
      ) : null}
    </div>
  );
}
