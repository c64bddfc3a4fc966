import { ScriptField } from '@/components/script-field';
import { CaptionStylePicker } from '@/components/caption-style-picker';
import { MusicBedField } from '@/components/music-bed-field';
import { useProjectMusic } from '@/lib/api/project-music';
import { OptionSelect } from '@/components/option-select';
import {
  ACCENT_OPTIONS,
  type Accent,
  type Avatar,
  type AvatarWithStatus,
  type CaptionStyle,
  INSUFFICIENT_CREDITS,
  LANGUAGE_OPTIONS,
  type Language,
  type MaskPlacement,
  MESSAGES,
  type Project,
  TIMINGS,
  VALIDATION,
} from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  ArrowLeftIcon,
  CheckCircle2Icon,
  Loader2Icon,
  MoveIcon,
  PackagePlusIcon,
  SparklesIcon,
  XCircleIcon,
} from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ApiError, errorDetail } from '@/lib/api-client';
import { ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { defaultPlacement } from '@/components/product-placement';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedEffect } from '@/hooks/use-debounced-callback';
import { useNow } from '@/hooks/use-now';
import { meQueryKey } from '@/lib/auth/api/get-me';
import { handlePaymentRequired } from '@/lib/payment';
import { staticUrl } from '@/lib/urls';
import { useProjectAvatars } from '../api/get-avatars';
import { useMergeStatus } from '../api/get-merge-status';
import { useMergeSingle } from '../api/merge-single';
import { useAcceptProductCutout, useProductCutoutCheck } from '../api/product-cutout';
import { CutoutReview } from '@/components/cutout-review';
import { useQueueVideos } from '../api/queue-videos';
import { useUpdateProject } from '@/lib/api/update-project';
import { useProject } from '@/lib/api/get-project';
import { actorName } from '../components/actor-tile';
import { CostTag } from '@/components/cost-tag';
import { PlacementDialog } from '../components/placement-dialog';
import { canGenerate, mergeProgress, type MergeState } from '../lib/actors';
import type { MergeLocationState } from './select-actor-page';
import { useServerPrices } from '@/lib/api/prices';
import { isRepeatClick } from '@/lib/repeat-click';

/** /product-in-hand/{projectId}/merge: apply the product to each actor, write the script, generate. */
export function MergePage() {
  const projectId = Number(useParams().projectId);
  const location = useLocation();
  const actorIds = (location.state as MergeLocationState | null)?.actorIds;
  if (!Number.isInteger(projectId) || projectId <= 0) return <Navigate to="/new-video" replace />;
  return <Merge projectId={projectId} actorIds={actorIds && actorIds.length > 0 ? actorIds : null} />;
}

/**
 * The actors being merged: those the select-actor step handed over, else (the page opened from its address, in
 * a new tab or a bookmark) the project's saved selection, which that step stores before coming here.
 */
const mergeActors = (handed: number[] | null, project: Project | undefined): number[] | null =>
  handed ?? (project ? project.characters.filter((c) => c.selected).map((c) => c.id) : null);

interface Applying {
  startedAt: number;
  jobId: number | null;
}

function Merge({ projectId, actorIds: handed }: { projectId: number; actorIds: number[] | null }) {
  const navigate = useNavigate();
  const project = useProject(projectId);
  const actorIds = mergeActors(handed, project.data);

  useEffect(() => {
    if (project.isError) {
      toast.error(MESSAGES.projects.loadFailed);
      navigate('/new-video', { replace: true });
    }
  }, [project.isError, navigate]);

  if (actorIds !== null && actorIds.length === 0)
    return <Navigate to={`/product-in-hand/${projectId}/select-actor`} replace />;
  if (!project.data || actorIds === null) {
    return (
      <Page aria-busy="true">
        <Skeleton className="mb-6 h-9 w-72" />
        <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
          <div className="grid grid-cols-2 gap-4 md:grid-cols-3">
            {(actorIds ?? [0, 1, 2]).map((id) => (
              <Skeleton key={id} className="aspect-[9/16]" />
            ))}
          </div>
          <Skeleton className="h-80" />
        </div>
      </Page>
    );
  }
  return <MergeScreen project={project.data} actorIds={actorIds} />;
}

export function MergeScreen({ project, actorIds }: { project: Project; actorIds: number[] }) {
  const prices = useServerPrices();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const projectId = project.id;
  const avatars = useProjectAvatars(projectId);
  const music = useProjectMusic(projectId);
  const merge = useMergeSingle();
  const cutout = useProductCutoutCheck(project);
  const acceptCutout = useAcceptProductCutout();
  const cutoutCheck = project.cutout_check;
  // Nothing is merged (paid) until the cut-out is checked, and a needs-review one accepted (decision 214).
  const cutoutBlocks = cutout.checking || (cutoutCheck?.verdict === 'needs-review' && !cutoutCheck.accepted);
  const queue = useQueueVideos();
  const saveScript = useUpdateProject(projectId);
  const saveVoice = useUpdateProject(projectId);
  // The balance in the sidebar shows each spend as soon as the server has taken it.
  const creditsSpent = () => void queryClient.invalidateQueries({ queryKey: meQueryKey });
  const [applying, setApplying] = useState<Map<number, Applying>>(new Map());
  const [editing, setEditing] = useState<number | null>(null);
  const [script, setScript] = useState(project.script);
  const [language, setLanguage] = useState<Language>(project.language);
  const [accent, setAccent] = useState<Accent>(project.accent);
  const [captionStyle, setCaptionStyle] = useState<CaptionStyle>(project.caption_style);
  // The merge offers English/American, but a project may already hold another choice (set in the editor, which
  // the render uses): show that stored choice as an option rather than a value the list does not contain.
  const languageOptions = withStored(LANGUAGE_OPTIONS.merge, project.language);
  const accentOptions = withStored(ACCENT_OPTIONS.merge, project.accent);

  // Polled every second only while something is being applied.
  const statusQuery = useMergeStatus(projectId, (data) => {
    const m = new Map(data.map((s) => [s.avatar_id, s]));
    return (
      actorIds.some((id) => m.get(id)?.status === 'merging') ||
      [...applying].some(([id, a]) => !isSettled(m.get(id), a))
    );
  });
  const statuses = useMemo(() => new Map((statusQuery.data ?? []).map((s) => [s.avatar_id, s])), [statusQuery.data]);
  // A local "applying" entry is over once the server reports the outcome of that merge job.
  const pending = new Set([...applying].filter(([id, a]) => !isSettled(statuses.get(id), a)).map(([id]) => id));
  const anyMerging = pending.size > 0 || actorIds.some((id) => statuses.get(id)?.status === 'merging');
  const now = useNow(500, anyMerging);

  // Tell the user when a merge they started failed (once per merge job).
  const reported = useRef(new Set<string>());
  useEffect(() => {
    for (const [id, a] of applying) {
      const s = statuses.get(id);
      const key = `${id}:${a.jobId ?? a.startedAt}`;
      if (s?.status === 'failed' && isSettled(s, a) && !reported.current.has(key)) {
        reported.current.add(key);
        toast.error(MESSAGES.hookPacks.mergeFailed);
      }
    }
  }, [statuses, applying]);

  const avatarById = useMemo(() => new Map((avatars.data ?? []).map((a) => [a.id, a])), [avatars.data]);
  const stateOf = (id: number): MergeState => {
    if (pending.has(id)) return 'applying';
    const s = statuses.get(id)?.status ?? avatarById.get(id)?.merge_status ?? 'not_merged';
    return s === 'merging' ? 'applying' : s;
  };
  const states = new Map(actorIds.map((id) => [id, stateOf(id)] as const));

  // Auto-save: script after 1000 ms, language and accent after 500 ms, only when different from the project
  // (`project` is the stored one: the cache updates after every save).
  useDebouncedEffect(script, TIMINGS.mergeScriptAutoSaveMs, (value) => {
    if (value === project.script) return;
    saveScript.mutate({ script: value }, { onError: (e) => console.error('Auto-save of the script failed', e) });
  });
  useDebouncedEffect(`${language}|${accent}`, TIMINGS.mergeLanguageAutoSaveMs, () => {
    const patch: { language?: Language; accent?: Accent } = {};
    if (language !== project.language) patch.language = language;
    if (accent !== project.accent) patch.accent = accent;
    if (Object.keys(patch).length === 0) return;
    saveVoice.mutate(patch, { onError: (e) => console.error('Auto-save of language/accent failed', e) });
  });

  const editingAvatar = editing !== null ? avatarById.get(editing) : undefined;
  // Read once when the dialog body mounts (each opening).
  const initialPlacement: MaskPlacement =
    editing !== null
      ? (statuses.get(editing)?.placement ?? defaultPlacement(avatarById.get(editing)))
      : defaultPlacement();

  const apply = async (characterId: number, placement: MaskPlacement, mask: File) => {
    try {
      const res = await merge.mutateAsync({ projectId, characterId, placement, mask });
      creditsSpent();
      setApplying((m) => new Map(m).set(characterId, { startedAt: Date.now(), jobId: res.job_id }));
      setEditing(null);
      void statusQuery.refetch();
    } catch (e) {
      if (isConflict(e)) {
        // Another tab already started this actor's merge: show that one's progress instead of a second charge.
        toast.error(errorDetail(e, MESSAGES.server.mergeInProgress));
        creditsSpent(); // the other tab's spend
        setEditing(null);
        void statusQuery.refetch();
      } else if (!handlePaymentRequired(e, INSUFFICIENT_CREDITS.merge, queryClient))
        toast.error(errorDetail(e, MESSAGES.hookPacks.mergeFailed));
    }
  };

  const ready = canGenerate(actorIds, states, script);
  const mergedCount = actorIds.filter((id) => states.get(id) === 'merged').length;

  const generate = async () => {
    try {
      // Make sure the latest script and voice are stored before queueing.
      const patch: { script?: string; language?: Language; accent?: Accent; caption_style?: CaptionStyle } = {};
      if (script !== project.script) patch.script = script;
      if (language !== project.language) patch.language = language;
      if (accent !== project.accent) patch.accent = accent;
      if (captionStyle !== project.caption_style) patch.caption_style = captionStyle;
      if (Object.keys(patch).length) await saveScript.mutateAsync(patch);
      await queue.mutateAsync(projectId);
      creditsSpent();
      toast.success(MESSAGES.jobs.queued);
      navigate('/jobs');
    } catch (e) {
      if (isConflict(e)) {
        // These videos are already queued or rendering (another tab): nothing was charged; point at them.
        toast.error(errorDetail(e, MESSAGES.server.projectVideosInProgress), {
          action: { label: 'View jobs', onClick: () => navigate('/jobs') },
        });
      } else if (!handlePaymentRequired(e, INSUFFICIENT_CREDITS.videos, queryClient))
        toast.error(errorDetail(e, MESSAGES.hookPacks.videosFailed));
    }
  };

  return (
    <Page>
      <Button
        variant="ghost"
        className="-ml-3 mb-2"
        onClick={() =>
          navigate(`/product-in-hand/${projectId}/select-actor`, { state: { actorIds } satisfies MergeLocationState })
        }
      >
        <ArrowLeftIcon aria-hidden="true" /> Select Actors
      </Button>
      <PageHeader
        title="Apply Product"
        description={`Place “${project.name}” in each actor's hands, write the script and generate.`}
      />
      {avatars.isError ? <ErrorBanner className="mb-6">{MESSAGES.avatars.loadFailed}</ErrorBanner> : null}
      {cutout.checking ? (
        <p className="mb-4 flex items-center gap-2 text-sm text-muted-foreground" data-testid="cutout-checking">
          <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> Checking the product cut-out…
        </p>
      ) : cutoutCheck ? (
        <CutoutReview
          className="mb-6"
          check={cutoutCheck}
          reuploadLabel="Start again with another photo"
          onReupload={() => navigate('/product-in-hand/new')}
          accepting={acceptCutout.isPending}
          onAccept={() =>
            acceptCutout.mutate(projectId, {
              onError: (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.acceptCutoutFailed)),
            })
          }
        />
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-label="Actors">
          <p className="mb-3 text-sm text-muted-foreground">
            {mergedCount} of {actorIds.length} actor(s) ready
          </p>
          <div className="grid grid-cols-2 gap-4 md:grid-cols-3">
            {actorIds.map((id) => (
              <MergeCard
                key={id}
                avatar={avatarById.get(id)}
                avatarId={id}
                state={states.get(id) ?? 'not_merged'}
                status={statuses.get(id)}
                progress={mergeProgress(
                  statuses.get(id)?.progress ?? 0,
                  applying.get(id)?.startedAt,
                  now,
                  TIMINGS.mergeDurationMs,
                )}
                onApply={() => setEditing(id)}
                applyDisabled={cutoutBlocks}
                loading={avatars.isPending}
              />
            ))}
          </div>
        </section>
        <Card className="h-fit lg:sticky lg:top-6">
          <CardHeader>
            <CardTitle>Script & voice</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <ScriptField
              id="merge-script"
              rows={7}
              placeholder="What should the actors say about your product?"
              value={script}
              onChange={setScript}
            />
            <div className="grid grid-cols-2 gap-3">
              <OptionSelect
                id="merge-language"
                label="Language"
                value={language}
                options={languageOptions}
                onChange={(v: Language) => setLanguage(v)}
              />
              <OptionSelect
                id="merge-accent"
                label="Accent"
                value={accent}
                options={accentOptions}
                onChange={(v: Accent) => setAccent(v)}
              />
            </div>
            <CaptionStylePicker value={captionStyle} onChange={setCaptionStyle} compact />
            <MusicBedField musicUrl={project.music_url} music={music} />
            <Button
              variant="brand"
              className="w-full"
              size="lg"
              onClick={(e) => {
                if (!isRepeatClick(e)) void generate();
              }}
              disabled={!ready || queue.isPending}
            >
              {queue.isPending ? (
                <Loader2Icon className="animate-spin" aria-hidden="true" />
              ) : (
                <SparklesIcon aria-hidden="true" />
              )}
              Generate Videos <CostTag credits={prices.cost('video', actorIds.length)} />
            </Button>
            {!ready ? (
              <p className="text-xs text-muted-foreground" data-testid="generate-hint">
                {mergedCount < actorIds.length ? 'Apply the product to every actor first.' : VALIDATION.scriptRequired}
              </p>
            ) : null}
          </CardContent>
        </Card>
      </div>
      <PlacementDialog
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        actorName={editingAvatar ? actorName(editingAvatar) : `Actor ${editing ?? ''}`}
        actorUrl={staticUrl(editingAvatar?.url)}
        productUrl={staticUrl(project.file_path)}
        initial={initialPlacement}
        onApply={(placement, mask) => (editing !== null ? apply(editing, placement, mask) : Promise.resolve())}
      />
    </Page>
  );
}

function isSettled(s: AvatarWithStatus | undefined, a: Applying): boolean {
  if (!s) return false;
  if (a.jobId !== null && s.job_id !== null && s.job_id !== a.jobId) return false;
  return s.status === 'merged' || s.status === 'failed';
}

function MergeCard({
  avatar,
  avatarId,
  state,
  status,
  progress,
  onApply,
  applyDisabled = false,
  loading,
}: {
  avatar: Avatar | undefined;
  avatarId: number;
  state: MergeState;
  status: AvatarWithStatus | undefined;
  progress: number;
  onApply: () => void;
  /** The product cut-out is still being checked, or needs the user's look first. */
  applyDisabled?: boolean;
  loading: boolean;
}) {
  const name = avatar ? actorName(avatar) : `Actor ${avatarId}`;
  const merged = state === 'merged' ? staticUrl(status?.merged_url ?? avatar?.merged_url) : undefined;
  const image = merged ?? staticUrl(avatar?.url);
  return (
    <article
      data-testid="merge-card"
      data-state={state}
      className="overflow-hidden rounded-xl border bg-card shadow-sm"
    >
      <div className="relative aspect-[9/16] bg-muted">
        {loading ? <Skeleton className="absolute inset-0 rounded-none" /> : null}
        {image ? (
          <img
            src={image}
            alt={merged ? `${name} holding the product` : name}
            className="absolute inset-0 size-full object-cover"
          />
        ) : null}
        {state === 'applying' ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/50 p-4 text-white">
            <Loader2Icon className="size-7 animate-spin" aria-hidden="true" />
            <span className="text-sm font-medium">Applying product…</span>
            <Progress value={progress} className="bg-white/30" aria-label={`Applying product to ${name}`} />
            <span className="text-xs opacity-80">
              {/* Only the server's measured estimate is a figure; before it has one, none is made up. */}
              {status?.eta_seconds != null ? `About ${status.eta_seconds} s left` : 'Working out the time left…'}
            </span>
          </div>
        ) : null}
        {state === 'merged' ? (
          <span className="absolute top-2 left-2 inline-flex items-center gap-1 rounded-full bg-emerald-600 px-2 py-0.5 text-xs font-medium text-white">
            <CheckCircle2Icon className="size-3.5" aria-hidden="true" /> Merged
          </span>
        ) : state === 'failed' ? (
          <span className="absolute top-2 left-2 inline-flex items-center gap-1 rounded-full bg-red-600 px-2 py-0.5 text-xs font-medium text-white">
            <XCircleIcon className="size-3.5" aria-hidden="true" /> Failed
          </span>
        ) : null}
      </div>
      {/* The name keeps at least a short word's room beside the button; when both do not fit the button wraps
          below it, and only a really long name is cut (two lines, the whole name in its title). */}
      <div className="flex flex-wrap items-center justify-between gap-2 p-3">
        <span className="line-clamp-2 min-w-20 flex-1 text-sm font-medium break-words" title={name}>
          {name}
        </span>
        {state === 'merged' ? (
          <Button size="sm" variant="outline" onClick={onApply}>
            <MoveIcon aria-hidden="true" /> Re-Position
          </Button>
        ) : (
          <Button size="sm" onClick={onApply} disabled={state === 'applying' || !avatar || applyDisabled}>
            <PackagePlusIcon aria-hidden="true" /> Apply product
          </Button>
        )}
      </div>
    </article>
  );
}

/** The screen's options, plus the stored value when it is not one of them. */
export function withStored<T extends string>(options: readonly T[], stored: T): readonly T[] {
  return options.includes(stored) ? options : [...options, stored];
}

const isConflict = (e: unknown): boolean => e instanceof ApiError && e.status === 409;
