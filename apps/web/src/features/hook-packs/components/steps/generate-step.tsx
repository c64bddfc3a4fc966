import {
  BIDI_CONTROL_MESSAGE,
  hasNoBidiControls,
  type HookPack,
  INSUFFICIENT_CREDITS,
  type Job,
  isTerminalJobStatus,
  LIMITS,
  MESSAGES,
  VALIDATION,
  costOf,
  withCost,
  formatCredits,
} from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLinkIcon, Loader2Icon, RotateCcwIcon, SparklesIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { JobStatusBadge } from '@/components/job-status-badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { useNow } from '@/hooks/use-now';
import { errorDetail, isApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { allJobsDone, usePackJobs } from '../../api/get-pack-jobs';
import { hookPackKeys } from '../../api/keys';
import { useQueueHookPackVideos } from '../../api/queue-videos';
import { jobCounts, packProgress, simulatedProgress } from '../../lib/progress';
import { useCreditsSpent, usePaidErrorToast } from '../../lib/use-paid-error';
import { useHookLines } from '../../api/get-hook-lines';
import { approvedCharacterIds, defaultVariants, type VariantRow } from '../../lib/variants';
import type { StepProps } from '../../lib/wizard-data';
import { StepFrame } from '../wizard-stepper';

const STARTED_STATUSES = new Set(['generating_videos', 'videos_ready', 'completed']);

/** Step 6: the 12 character + hook-line pairs (editable), then generation with live progress. */
export function GenerateStep({ pack, data, setData, advance, back, advancing }: StepProps) {
  const queryClient = useQueryClient();
  const [rerun, setRerun] = useState(false);
  const startedAt = data.generatedVideos.startedAt;
  const packStarted = pack ? STARTED_STATUSES.has(pack.status) : false;
  const jobs = usePackJobs(pack?.id ?? null, { waitForJobs: startedAt !== null });
  const started = !rerun && (startedAt !== null || packStarted || (jobs.data?.length ?? 0) > 0);

  if (!pack) return null;
  return started ? (
    <GenerationProgress
      pack={pack}
      startedAt={startedAt}
      jobsError={jobs.isError}
      jobs={jobs.data ?? []}
      onBack={back}
      advancing={advancing}
      onContinue={() => void advance()}
      onGenerateAgain={() => {
        setData((d) => ({ ...d, generatedVideos: { startedAt: null } }));
        setRerun(true);
      }}
    />
  ) : (
    <VariantsEditor
      pack={pack}
      data={data}
      setData={setData}
      back={back}
      onStarted={() => {
        setRerun(false);
        setData((d) => ({ ...d, generatedVideos: { startedAt: Date.now() } }));
        // Local status while the videos render (the server sets the same).
        queryClient.setQueryData<HookPack>(hookPackKeys.detail(pack.id), (old) =>
          old ? { ...old, status: 'generating_videos' } : old,
        );
      }}
    />
  );
}

/** The videos' price and the balance left after them, before the spend. */
function VideosCost({ count }: { count: number }) {
  const { user } = useAuth();
  const cost = costOf('video', count);
  const left = Math.round(((user?.credits ?? 0) - cost) * 100) / 100;
  return (
    <p data-testid="videos-cost" className={cn('text-sm text-muted-foreground', left < 0 && 'text-destructive')}>
      {count} videos cost {formatCredits(cost)} credits.{' '}
      {left < 0 ? (
        <>
          You need {formatCredits(-left)} more.{' '}
          <Link to="/credits" className="font-medium underline underline-offset-4">
            Get credits
          </Link>
        </>
      ) : (
        <>Your balance after: {formatCredits(left)} credits.</>
      )}
    </p>
  );
}

function VariantsEditor({
  pack,
  data,
  setData,
  back,
  onStarted,
}: {
  pack: HookPack;
  data: StepProps['data'];
  setData: StepProps['setData'];
  back: () => void;
  onStarted: () => void;
}) {
  const queue = useQueueHookPackVideos();
  const paidError = usePaidErrorToast();
  const creditsSpent = useCreditsSpent();
  const [error, setError] = useState<string | null>(null);
  const approvedIds = approvedCharacterIds(pack.preview_characters);
  const hook = data.message?.hookText ?? pack.message ?? '';
  const suggested = useHookLines(pack.id, hook);
  const defaults = () =>
    defaultVariants({
      hook,
      productDetails: pack.product_details,
      language: pack.language,
      approvedCharacterIds: approvedIds,
      suggested: suggested.data?.lines,
    });
  const rows = data.variants && data.variants.length > 0 ? data.variants : defaults();
  const setRows = (next: VariantRow[]) => {
    setError(null);
    setData((d) => ({ ...d, variants: next }));
  };
  const previewOf = new Map(
    [...pack.preview_characters]
      .filter((p) => p.approved && p.url)
      .map((p) => [p.generated_character_id, p.url as string] as const),
  );
  const characterName = new Map(pack.generated_characters.map((c) => [c.id, c.prompt] as const));

  const generate = () => {
    if (approvedIds.length === 0) {
      setError(VALIDATION.noApprovedPreviews);
      return;
    }
    if (rows.length === 0 || rows.some((r) => !approvedIds.includes(r.generated_character_id))) {
      setError(VALIDATION.noApprovedCharacters);
      return;
    }
    if (rows.some((r) => !r.hook_text.trim())) {
      setError(VALIDATION.hookRequired);
      return;
    }
    if (!rows.every((r) => hasNoBidiControls(r.hook_text))) {
      setError(BIDI_CONTROL_MESSAGE);
      return;
    }
    return queue
      .mutateAsync({ hookPackId: pack.id, variants: rows.map((r) => ({ ...r, hook_text: r.hook_text.trim() })) })
      .then(
        () => {
          creditsSpent();
          onStarted();
        },
        (e: unknown) => {
          if (isApiError(e) && e.status === 409) {
            toast.info(errorDetail(e, MESSAGES.hookPacks.videosFailed));
            onStarted();
            return;
          }
          paidError(e, INSUFFICIENT_CREDITS.videos, MESSAGES.hookPacks.videosFailed);
        },
      );
  };

  return (
    <StepFrame
      title="Generate"
      description={`Your pack has ${LIMITS.videosPerHookPack} videos: your hook first, then variations. Edit any line or character before generating.`}
      onBack={back}
      onContinue={generate}
      continueLabel={
        queue.isPending ? 'Starting...' : withCost(`Generate ${rows.length} videos`, costOf('video', rows.length))
      }
      busy={queue.isPending}
      error={error}
      extraActions={
        <Button type="button" variant="ghost" onClick={() => setRows(defaults())} className="w-full sm:w-auto">
          <RotateCcwIcon aria-hidden="true" /> Reset lines
        </Button>
      }
    >
      <VideosCost count={rows.length} />
      {approvedIds.length === 0 ? (
        <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">
          {VALIDATION.noApprovedPreviews}
        </p>
      ) : (
        <ol className="divide-y rounded-xl border" aria-label="Videos to generate">
          {rows.map((r, i) => (
            <li key={r.index} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center" data-testid="variant-row">
              <div className="flex items-center gap-3 sm:w-56 sm:shrink-0">
                <span className="aspect-[9/16] w-10 shrink-0 overflow-hidden rounded bg-muted">
                  {previewOf.get(r.generated_character_id) ? (
                    <img
                      src={staticUrl(previewOf.get(r.generated_character_id))}
                      alt=""
                      className="size-full object-cover"
                    />
                  ) : null}
                </span>
                <div className="min-w-0 flex-1">
                  <div className="text-sm font-medium">
                    Video #{r.index}
                    {i === 0 ? <span className="ml-2 text-xs font-normal text-primary">Your hook</span> : null}
                  </div>
                  <select
                    aria-label={`Character for video ${r.index}`}
                    value={r.generated_character_id}
                    onChange={(e) =>
                      setRows(
                        rows.map((x, j) => (j === i ? { ...x, generated_character_id: Number(e.target.value) } : x)),
                      )
                    }
                    className="mt-1 w-full truncate rounded-md border bg-background px-2 py-1 text-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  >
                    {approvedIds.map((id, k) => (
                      <option key={id} value={id}>
                        Character {k + 1}: {characterName.get(id) ?? id}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <Input
                aria-label={`Hook line for video ${r.index}`}
                value={r.hook_text}
                maxLength={LIMITS.hookTextMax}
                aria-invalid={!r.hook_text.trim() ? true : undefined}
                onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, hook_text: e.target.value } : x)))}
              />
            </li>
          ))}
        </ol>
      )}
    </StepFrame>
  );
}

function GenerationProgress({
  pack,
  startedAt,
  jobs,
  jobsError,
  onBack,
  onContinue,
  onGenerateAgain,
  advancing,
}: {
  pack: HookPack;
  startedAt: number | null;
  jobs: Job[];
  jobsError: boolean;
  onBack: () => void;
  onContinue: () => void;
  onGenerateAgain: () => void;
  advancing: boolean;
}) {
  const done = allJobsDone(jobs);
  const now = useNow(1000, !done);
  const counts = jobCounts(jobs);
  // Real progress when the server reports jobs; otherwise time-based, capped at 90%.
  const real = jobs.length > 0;
  const percent = real ? packProgress(jobs) : simulatedProgress(startedAt ?? now, now);
  return (
    <StepFrame
      title="Generate"
      description="Your videos are being generated. This typically takes 2-3 minutes."
      onBack={onBack}
      onContinue={onContinue}
      continueDisabled={!done || counts.completed === 0}
      busy={advancing}
      extraActions={
        done ? (
          <Button type="button" variant="outline" onClick={onGenerateAgain} className="w-full sm:w-auto">
            <SparklesIcon aria-hidden="true" /> Generate again
          </Button>
        ) : null
      }
    >
      <div className="space-y-3 rounded-xl border p-4" aria-live="polite">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="flex items-center gap-2 font-medium">
            {!done ? <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> : null}
            {done
              ? counts.failed > 0
                ? `${counts.completed} of ${counts.total} videos ready, ${counts.failed} failed`
                : `All ${counts.total} videos are ready`
              : real
                ? `${counts.completed} of ${counts.total} videos ready`
                : 'Starting generation...'}
          </span>
          <span className="tabular-nums" data-testid="generation-progress">
            {percent}%
          </span>
        </div>
        <Progress value={percent} aria-label="Generation progress" />
        {jobsError ? <p className="text-sm text-destructive">{MESSAGES.jobs.updatesFailed}</p> : null}
        <p className="text-xs text-muted-foreground">
          Typically 2-3 minutes. You can leave this page; generation continues.
        </p>
        <Button asChild variant="link" className="h-auto p-0">
          <Link to={`/hook-packs/jobs/${pack.id}`}>
            View generation jobs <ExternalLinkIcon aria-hidden="true" />
          </Link>
        </Button>
      </div>
      {real ? (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
          {jobs.map((j, i) => (
            <li key={j.id} className="flex items-center justify-between gap-2 rounded-lg border px-3 py-2 text-sm">
              <span>Video #{j.variant_index ?? i + 1}</span>
              {isTerminalJobStatus(j.status) ? (
                <JobStatusBadge status={j.status} />
              ) : (
                <span className="text-xs tabular-nums text-muted-foreground">{Math.round(j.progress)}%</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </StepFrame>
  );
}
