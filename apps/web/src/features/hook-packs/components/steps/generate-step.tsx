import {
  BIDI_CONTROL_MESSAGE,
  hasNoBidiControls,
  HOOK_ANGLE_INFO,
  type HookPack,
  type Job,
  isTerminalJobStatus,
  LIMITS,
  MESSAGES,
  VALIDATION,
  withCost,
  formatCredits,
  creditsTimes,
  roundCredits,
} from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLinkIcon, Loader2Icon, RotateCcwIcon, SparklesIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { JobStatusBadge } from '@/components/job-status-badge';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useNow } from '@/hooks/use-now';
import { useAuth } from '@/lib/auth';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { allJobsDone, usePackJobs } from '../../api/get-pack-jobs';
import { hookPackKeys } from '../../api/keys';
import { jobCounts, packProgress, packWaitText, simulatedProgress } from '../../lib/progress';
import { useHookLines } from '../../api/get-hook-lines';
import { approvedCharacterIds, defaultLines, defaultVariants, type VariantRow } from '../../lib/variants';
import type { StepProps } from '../../lib/wizard-data';
import { HookLineField } from '../hook-line-field';
import { StepFrame } from '../wizard-stepper';
import { useStartPackVideos } from './use-start-videos';
import { MatrixEditor } from './matrix-editor';
import { usePackVideoStyle } from '../pack-video-style';

const STARTED_STATUSES = new Set(['generating_videos', 'videos_ready', 'completed']);

/** Step 6: the 12 character + hook-line pairs (editable), then generation with live progress. */
export function GenerateStep({ pack, data, setData, advance, back, advancing }: StepProps) {
  const queryClient = useQueryClient();
  const [rerun, setRerun] = useState(false);
  const startedAt = data.generatedVideos.startedAt;
  const packStarted = pack ? STARTED_STATUSES.has(pack.status) : false;
  const jobs = usePackJobs(pack?.id ?? null, { waitForJobs: startedAt !== null });
  const started = !rerun && (startedAt !== null || packStarted || (jobs.data?.length ?? 0) > 0);
  const [mode, setMode] = useState<'pack' | 'matrix'>('pack');

  if (!pack) return null;
  const onStarted = () => {
    setRerun(false);
    setData((d) => ({ ...d, generatedVideos: { startedAt: Date.now() } }));
    // Local status while the videos render (the server sets the same).
    queryClient.setQueryData<HookPack>(hookPackKeys.detail(pack.id), (old) =>
      old ? { ...old, status: 'generating_videos' } : old,
    );
  };
  const modeSwitch = <ModeSwitch mode={mode} onChange={setMode} />;
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
  ) : mode === 'matrix' ? (
    <MatrixEditor
      pack={pack}
      hook={data.message?.hookText ?? pack.message ?? ''}
      back={back}
      modeSwitch={modeSwitch}
      onStarted={onStarted}
    />
  ) : (
    <VariantsEditor
      pack={pack}
      data={data}
      setData={setData}
      back={back}
      modeSwitch={modeSwitch}
      onStarted={onStarted}
    />
  );
}

/** The 12-video pack, or a hook matrix (docs/product.md#hook-matrix). */
function ModeSwitch({ mode, onChange }: { mode: 'pack' | 'matrix'; onChange: (m: 'pack' | 'matrix') => void }) {
  const option = (value: 'pack' | 'matrix', label: string) => (
    <Button
      type="button"
      size="sm"
      variant={mode === value ? 'default' : 'ghost'}
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
    >
      {label}
    </Button>
  );
  return (
    <div role="group" aria-label="Generation mode" className="inline-flex gap-1 rounded-lg border p-1">
      {option('pack', `${LIMITS.videosPerHookPack} videos`)}
      {option('matrix', 'Matrix')}
    </div>
  );
}

/** The videos' price and the balance left after them, before the spend. */
function VideosCost({ count, cost }: { count: number; cost: number }) {
  const { user } = useAuth();
  const left = roundCredits((user?.credits ?? 0) - cost);
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
  modeSwitch,
  onStarted,
}: {
  pack: HookPack;
  data: StepProps['data'];
  setData: StepProps['setData'];
  back: () => void;
  modeSwitch: React.ReactNode;
  onStarted: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const style = usePackVideoStyle(pack);
  const { start, pending } = useStartPackVideos({ packId: pack.id, style, onStarted });
  const perVideo = style.perVideo;
  const approvedIds = approvedCharacterIds(pack.preview_characters);
  const hook = data.message?.hookText ?? pack.message ?? '';
  const suggested = useHookLines(pack.id, hook);
  const lineInput = {
    hook,
    productDetails: pack.product_details,
    category: pack.detected_category,
    language: pack.language,
    suggested: suggested.data,
  };
  const defaults = () => defaultVariants({ ...lineInput, approvedCharacterIds: approvedIds });
  // Each default line says which hook angle it tests; a line the user rewrote is theirs and says nothing.
  const angles = defaultLines(lineInput);
  const angleOf = (r: VariantRow, i: number) =>
    angles[i]?.text === r.hook_text ? HOOK_ANGLE_INFO[angles[i].angle].label : null;
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

  const totalCost = perVideo === null ? null : creditsTimes(perVideo, rows.length);

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
    return start({ variants: rows.map((r) => ({ ...r, hook_text: r.hook_text.trim() })) });
  };

  return (
    <StepFrame
      title="Generate"
      description={`Your pack has ${LIMITS.videosPerHookPack} videos: your hook first, then variations. Edit any line or character before generating.`}
      onBack={back}
      onContinue={generate}
      continueLabel={
        pending
          ? 'Starting...'
          : totalCost === null
            ? `Generate ${rows.length} videos`
            : withCost(`Generate ${rows.length} videos`, totalCost)
      }
      busy={pending}
      error={error}
      extraActions={
        <Button type="button" variant="ghost" onClick={() => setRows(defaults())} className="w-full sm:w-auto">
          <RotateCcwIcon aria-hidden="true" /> Reset lines
        </Button>
      }
    >
      {modeSwitch}
      {totalCost === null ? null : <VideosCost count={rows.length} cost={totalCost} />}
      {style.pickers(pending)}
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
                    {angleOf(r, i) ? (
                      <span className="ml-2 text-xs font-normal text-primary" data-testid="variant-angle">
                        {angleOf(r, i)}
                      </span>
                    ) : null}
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
              <HookLineField
                aria-label={`Hook line for video ${r.index}`}
                value={r.hook_text}
                maxLength={LIMITS.hookTextMax}
                aria-invalid={!r.hook_text.trim() ? true : undefined}
                onValueChange={(text) => setRows(rows.map((x, j) => (j === i ? { ...x, hook_text: text } : x)))}
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
      description="Your videos are being generated."
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
          {packWaitText(jobs)} You can leave this page; generation continues.
        </p>
        <ButtonLink to={`/hook-packs/jobs/${pack.id}`} variant="link" className="h-auto p-0">
          View generation jobs <ExternalLinkIcon aria-hidden="true" />
        </ButtonLink>
      </div>
      {real ? (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
          {jobs.map((j, i) => (
            <li key={j.id} className="flex items-center justify-between gap-2 rounded-lg border px-3 py-2 text-sm">
              <span>
                Video #{j.variant_index ?? i + 1}
                {j.variant_id ? (
                  <span className="ml-1 font-mono text-xs text-muted-foreground">{j.variant_id}</span>
                ) : null}
              </span>
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
