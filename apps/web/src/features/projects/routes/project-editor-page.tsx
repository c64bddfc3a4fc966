import { ScriptField } from '@/components/script-field';
import { OptionSelect } from '@/components/option-select';
import {
  ACCENT_OPTIONS,
  type Accent,
  INSUFFICIENT_CREDITS,
  LANGUAGE_OPTIONS,
  type Language,
  MESSAGES,
  VALIDATION,
  type Aspect,
  type CaptionStyle,
  type Project,
  type VideoQuality,
  TIMINGS,
  MIN_BILLED_SECONDS,
  realisticVideoCost,
  spokenSeconds,
  type UpdateProjectRequest,
  type VoiceSource,
} from '@hookreel/contracts';
import { RenderQualityPicker, VoiceSpeedSlider } from '@/components/render-quality-picker';
import { VoicePicker } from '@/components/voice-picker';
import { useCapabilities, usePriceList } from '@/lib/api/render-quality';
import { BrandStyleFields } from '@/components/brand-style-fields';
import { CaptionStylePicker } from '@/components/caption-style-picker';
import { MusicBedField } from '@/components/music-bed-field';
import { AspectPicker } from '@/components/aspect-picker';
import { CostTag } from '@/components/cost-tag';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, ListVideoIcon, SparklesIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { EmptyState } from '@/components/layout/banner';
import { Page } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useBrandLook } from '@/hooks/use-brand-look';
import { useDebouncedEffect } from '@/hooks/use-debounced-callback';
import { errorDetail, isApiError } from '@/lib/api-client';
import { handlePaymentRequired } from '@/lib/payment';
import { staticUrl } from '@/lib/urls';
import { useDeleteProject } from '../api/delete-project';
import { useQueueJob } from '../api/queue-job';
import { useVoiceOver } from '../api/voice-over';
import { useProjectMusic } from '@/lib/api/project-music';
import { VoiceSection } from '../components/voice-section';
import { useSelectCharacters } from '@/lib/api/select-characters';
import { useUpdateProject } from '@/lib/api/update-project';
import { saveOrRestore } from '@/lib/save-or-restore';
import { useProject } from '@/lib/api/get-project';
import { CharactersSection, type EditorCharacter } from '../components/characters-section';
import { DeleteProjectDialog } from '../components/delete-project-dialog';
import { EditableTitle } from '../components/editable-title';
import { changedFields, type Editable } from '../lib/auto-save';
import { isRepeatClick } from '@/lib/repeat-click';

/** /projects/{id}: the project editor. */
export function ProjectEditorPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const query = useProject(id);
  const notFound = !Number.isInteger(id) || id <= 0 || (isApiError(query.error) && query.error.status === 404);

  useEffect(() => {
    if (query.isError && !notFound) {
      toast.error(MESSAGES.projects.loadFailed);
      navigate('/projects', { replace: true });
    }
  }, [query.isError, notFound, navigate]);

  if (notFound) {
    return (
      <Page>
        <EmptyState
          title={MESSAGES.projects.notFound}
          action={
            <Button onClick={() => navigate('/projects')}>
              <ArrowLeftIcon aria-hidden="true" /> Back to Projects
            </Button>
          }
        />
      </Page>
    );
  }
  if (!query.data) {
    return (
      <Page className="max-w-5xl" aria-busy="true">
        <Skeleton className="mb-6 h-9 w-64" />
        <Skeleton className="mb-4 h-40" />
        <Skeleton className="h-56" />
      </Page>
    );
  }
  return <ProjectEditor key={query.data.id} project={query.data} />;
}

export function ProjectEditor({ project }: { project: Project }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const update = useUpdateProject(project.id);
  const autoSave = useUpdateProject(project.id);
  const styleSave = useUpdateProject(project.id);
  const saveStyle = saveOrRestore<UpdateProjectRequest>(
    (patch, options) => styleSave.mutate(patch, options),
    MESSAGES.projects.updateFailed,
  );
  const del = useDeleteProject();
  const queue = useQueueJob();
  const selectChars = useSelectCharacters(project.id);
  const [preparing, setPreparing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The server's 422 to Generate (a Realistic script too long for the talking-actor model, decision 183), shown
  // beside the button for the settings it was said about; any change to them hides it.
  const [refusal, setRefusal] = useState<{ message: string; of: string } | null>(null);
  const [draft, setDraft] = useState<Editable>({
    script: project.script,
    language: project.language,
    accent: project.accent,
  });
  const [captionStyle, setCaptionStyle] = useState<CaptionStyle>(project.caption_style);
  const brandLook = useBrandLook(
    {
      caption_font: project.caption_font,
      primary_colour: project.primary_colour,
      secondary_colour: project.secondary_colour,
      outro: project.outro,
    },
    (patch) => styleSave.mutateAsync(patch),
    (e) => toast.error(errorDetail(e, MESSAGES.projects.updateFailed)),
  );
  const [quality, setQuality] = useState<VideoQuality>(project.quality);
  const [voiceSpeed, setVoiceSpeed] = useState(project.voice_speed);
  const [voiceSource, setVoiceSource] = useState<VoiceSource>(project.voice_source);
  const [voiceId, setVoiceId] = useState<string | null>(project.voice_id);
  const voiceOver = useVoiceOver(project.id);
  const music = useProjectMusic(project.id);
  // An own recording speaks only once it is stored; until then the generated voice does (and is priced).
  const ownSeconds =
    voiceSource === 'own' && project.voice_over
      ? Math.max(MIN_BILLED_SECONDS, Math.ceil(project.voice_over.duration_sec))
      : null;
  const [aspects, setAspects] = useState<Aspect[]>(project.aspects);
  const capabilities = useCapabilities();
  const priceList = usePriceList();
  // What one video costs in each quality, for this script at this speed, from the server's price list (the
  // server holds the same).
  const prices = priceList.data
    ? {
        draft: priceList.data.prices.video,
        realistic: realisticVideoCost(
          priceList.data.realistic.credits_per_second,
          ownSeconds ?? spokenSeconds(draft.script, voiceSpeed),
        ),
      }
    : null;
  const realisticAvailability = capabilities.data?.realistic.videos ?? null;
  const [characters, setCharacters] = useState<EditorCharacter[]>(() =>
    project.characters
      .filter((c) => c.selected)
      .map((c) => ({ id: c.id, name: c.name, url: c.url, catalogue: c.catalogue, photoreal: c.photoreal })),
  );

  const draftKey = JSON.stringify(draft);
  useDebouncedEffect(draftKey, TIMINGS.projectAutoSaveMs, () => {
    // `project` is the stored project: the cache updates after every successful save.
    const patch = changedFields(project, draft);
    if (Object.keys(patch).length === 0) return;
    autoSave.mutate(patch, { onError: (e) => console.error('Auto-save failed', e) });
  });

  const rename = (name: string) =>
    update.mutateAsync({ name }).then(
      () => toast.success(MESSAGES.projects.updated),
      (e: unknown) => {
        toast.error(errorDetail(e, MESSAGES.projects.updateFailed));
        throw e;
      },
    );

  const onDelete = () => {
    setConfirmDelete(false);
    del.mutate(project.id, {
      onSuccess: () => {
        toast.success(MESSAGES.projects.deleted);
        navigate('/projects');
      },
      onError: (e) => toast.error(errorDetail(e, MESSAGES.projects.deleteFailed)),
    });
  };

  /**
   * Saves what the render reads before queueing: edits still inside the auto-save debounce (navigating away
   * would drop them) and the characters picked here, so the video features the actor the user chose.
   */
  const saveForRender = async () => {
    const patch = changedFields(project, draft);
    if (Object.keys(patch).length > 0) await autoSave.mutateAsync(patch);
    if (captionStyle !== project.caption_style) await styleSave.mutateAsync({ caption_style: captionStyle });
    await brandLook.flush();
    if (aspects.join(',') !== project.aspects.join(',')) await styleSave.mutateAsync({ aspects });
    if (quality !== project.quality || voiceSpeed !== project.voice_speed) {
      await styleSave.mutateAsync({ quality, voice_speed: voiceSpeed });
    }
    const ids = characters.map((c) => c.id);
    const stored = project.characters.filter((c) => c.selected).map((c) => c.id);
    if (ids.length !== stored.length || ids.some((id, i) => id !== stored[i])) await selectChars.mutateAsync(ids);
  };

  /** Picked characters are saved at once, so they are still there after a reload. */
  const changeCharacters = (next: EditorCharacter[]) => {
    setCharacters(next);
    selectChars.mutate(
      next.map((c) => c.id),
      { onError: (e) => toast.error(errorDetail(e, MESSAGES.projects.updateFailed)) },
    );
  };
  /** The caption style is saved as soon as it is picked; a failed save puts the stored one back. */
  const changeCaptionStyle = (next: CaptionStyle) => saveStyle('caption_style', next, captionStyle, setCaptionStyle);

  /** Frame shapes are saved as soon as they are ticked; a failed save puts the stored ones back. */
  const changeAspects = (next: Aspect[]) => saveStyle('aspects', next, aspects, setAspects);
  /** Quality is saved as soon as it is picked; a failed save puts the stored one back. */
  const changeQuality = (next: VideoQuality) => saveStyle('quality', next, quality, setQuality);
  /** Voice speed follows the slider live and is saved once it is released; a failed save puts the stored one back. */
  const commitVoiceSpeed = (next: number) => {
    if (next === project.voice_speed) return;
    styleSave.mutate(
      { voice_speed: next },
      {
        onError: (e) => {
          setVoiceSpeed(project.voice_speed);
          toast.error(errorDetail(e, MESSAGES.projects.updateFailed));
        },
      },
    );
  };

  /**
   * The voice choice is saved at once when it can be: "own" needs a stored recording (the upload switches to it),
   * and going back to the generated voice keeps the recording for later. A failed save puts the stored one back.
   */
  const changeVoiceSource = (next: VoiceSource) => {
    setVoiceSource(next);
    if (next === project.voice_source || (next === 'own' && !project.voice_over)) return;
    styleSave.mutate(
      { voice_source: next },
      {
        onError: (e) => {
          setVoiceSource(project.voice_source);
          toast.error(errorDetail(e, MESSAGES.projects.updateFailed));
        },
      },
    );
  };

  /** The speaker is saved as soon as it is picked; a failed save (a voice the server refuses) puts it back. */
  const changeVoice = (next: string | null) => {
    const before = voiceId;
    setVoiceId(next);
    styleSave.mutate(
      // The language goes with it: a voice is checked against the language it will speak.
      { voice_id: next, language: draft.language },
      {
        onError: (e) => {
          setVoiceId(before);
          toast.error(errorDetail(e, MESSAGES.projects.updateFailed));
        },
      },
    );
  };

  // The video features an actor: Generate waits for at least one.
  const charactersMissing = characters.length === 0;
  // The render features the first chosen actor. A catalogue actor is a drawing: Realistic makes it photoreal
  // through the images provider, so without it the server refuses the video (an uploaded photo actor works).
  const drawnActorStuck =
    quality === 'realistic' &&
    capabilities.data?.stages.characters.remote === false &&
    characters[0]?.catalogue === true;
  const realisticNote = charactersMissing
    ? 'project-realistic-needs-actor'
    : drawnActorStuck
      ? 'project-realistic-catalogue-actor'
      : undefined;
  const refusedFor = JSON.stringify([draft, quality, voiceSpeed]);
  const refusalShown = refusal && refusal.of === refusedFor ? refusal.message : null;

  // The actor needs words to speak: a script is required (docs/product.md#rules).
  const scriptMissing = draft.script.trim().length === 0;

  const generate = async () => {
    setPreparing(true);
    try {
      await saveForRender();
    } catch (e) {
      setPreparing(false);
      console.error('Saving the project before queueing failed', e);
      toast.error(errorDetail(e, MESSAGES.jobs.queueFailed));
      return;
    }
    setPreparing(false);
    queue.mutate(project.id, {
      onSuccess: (jobId) => {
        toast.success(MESSAGES.jobs.queued);
        navigate(`/jobs/${jobId}`);
      },
      onError: (e) => {
        if (isApiError(e) && e.status === 422 && e.detail) setRefusal({ message: e.detail, of: refusedFor });
        else if (!handlePaymentRequired(e, INSUFFICIENT_CREDITS.videos, queryClient))
          toast.error(errorDetail(e, MESSAGES.jobs.queueFailed));
      },
    });
  };

  const image = staticUrl(project.file_path);

  return (
    <Page className="max-w-5xl">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" className="-ml-3" onClick={() => navigate('/projects')}>
          <ArrowLeftIcon aria-hidden="true" /> Back to Projects
        </Button>
        <Button
          variant="outline"
          className="text-destructive hover:text-destructive"
          onClick={() => setConfirmDelete(true)}
          disabled={del.isPending}
        >
          <Trash2Icon aria-hidden="true" /> Delete Project
        </Button>
      </div>

      <div className="mb-8 flex items-center gap-4">
        {image ? (
          <img src={image} alt="" className="size-16 shrink-0 rounded-lg border bg-muted object-contain" />
        ) : null}
        <EditableTitle name={project.name} onSave={rename} saving={update.isPending} />
      </div>

      <div className="space-y-6">
        <Card>
          <CardContent>
            <CharactersSection characters={characters} onChange={changeCharacters} />
            {charactersMissing ? (
              <p id="project-characters-required" className="mt-3 text-xs text-muted-foreground">
                {VALIDATION.selectOneActor}
              </p>
            ) : null}
          </CardContent>
        </Card>

        <Card>
          <CardContent className="space-y-5">
            <div className="grid gap-4 sm:grid-cols-2">
              <OptionSelect
                id="project-language"
                label="Language"
                value={draft.language}
                options={LANGUAGE_OPTIONS.projectEditor}
                onChange={(language: Language) => setDraft((d) => ({ ...d, language }))}
              />
              <OptionSelect
                id="project-accent"
                label="Accent"
                value={draft.accent}
                options={ACCENT_OPTIONS.projectEditor}
                onChange={(accent: Accent) => setDraft((d) => ({ ...d, accent }))}
              />
            </div>
            <ScriptField
              id="project-script"
              rows={8}
              placeholder="What should the actor say?"
              value={draft.script}
              onChange={(script) => setDraft((d) => ({ ...d, script }))}
              note={scriptMissing ? VALIDATION.scriptRequired : null}
            />
          </CardContent>
        </Card>

        <Card>
          <CardContent className="space-y-5">
            <RenderQualityPicker
              value={quality}
              onChange={changeQuality}
              prices={prices}
              availability={realisticAvailability}
            />
            <VoiceSection
              project={project}
              value={voiceSource}
              onChange={changeVoiceSource}
              onUpload={(file) => voiceOver.upload.mutateAsync(file).then(() => setVoiceSource('own'))}
              onRemove={() => voiceOver.remove.mutateAsync().then(() => setVoiceSource('generated'))}
              uploading={voiceOver.upload.isPending}
              removing={voiceOver.remove.isPending}
              generatedSettings={
                <div className="space-y-5">
                  <VoicePicker language={draft.language} accent={draft.accent} value={voiceId} onChange={changeVoice} />
                  <VoiceSpeedSlider value={voiceSpeed} onChange={setVoiceSpeed} onCommit={commitVoiceSpeed} />
                </div>
              }
            />
          </CardContent>
        </Card>

        <Card>
          <CardContent className="space-y-5">
            <CaptionStylePicker value={captionStyle} onChange={changeCaptionStyle} />
            <BrandStyleFields value={brandLook.brand} onChange={brandLook.change} />
            <MusicBedField musicUrl={project.music_url} music={music} />
          </CardContent>
        </Card>

        <Card>
          <CardContent>
            <AspectPicker value={aspects} onChange={changeAspects} />
          </CardContent>
        </Card>

        {charactersMissing && quality === 'realistic' ? (
          // Realistic animates a real-looking person: say why Generate waits where the user looks for it.
          <p id="project-realistic-needs-actor" role="note" className="text-right text-sm text-muted-foreground">
            {MESSAGES.realistic.needsActor}
          </p>
        ) : drawnActorStuck ? (
          <p id="project-realistic-catalogue-actor" role="note" className="text-right text-sm text-muted-foreground">
            {MESSAGES.realistic.catalogueActorNeedsImages}
          </p>
        ) : null}
        {refusalShown ? (
          <p id="project-generate-refused" role="alert" className="text-right text-sm text-destructive">
            {refusalShown}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => navigate('/jobs')}>
            <ListVideoIcon aria-hidden="true" /> View Jobs
          </Button>
          <Button
            variant="brand"
            onClick={(e) => {
              if (!isRepeatClick(e)) void generate();
            }}
            disabled={scriptMissing || charactersMissing || drawnActorStuck || preparing || queue.isPending}
            aria-describedby={
              refusalShown ? 'project-generate-refused' : quality === 'realistic' ? realisticNote : undefined
            }
          >
            <SparklesIcon aria-hidden="true" />
            {preparing || queue.isPending ? (
              'Generating...'
            ) : (
              <>
                {/* A price is only shown once the server's price list says it. */}
                Generate {prices ? <CostTag credits={prices[quality]} /> : null}
              </>
            )}
          </Button>
        </div>
      </div>

      <DeleteProjectDialog open={confirmDelete} onOpenChange={setConfirmDelete} onConfirm={onDelete} />
    </Page>
  );
}
