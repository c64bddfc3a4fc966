import { type HookPack, MESSAGES } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ButtonLink } from '@/components/button-link';
import { errorDetail } from '@/lib/api-client';
import { useServerPrices } from '@/lib/api/prices';
import { Page, PageHeader } from '@/components/layout/page';
import { Skeleton } from '@/components/ui/skeleton';
import { useHookPack } from '../api/get-hook-pack';
import { hookPackKeys } from '../api/keys';
import { type UpdateHookPackInput, useUpdateHookPack } from '../api/update-hook-pack';
import { HookPackStatusBadge } from '../components/status-badge';
import { CharacterTypeStep } from '../components/steps/character-type-step';
import { CharactersStep } from '../components/steps/characters-step';
import { GenerateStep } from '../components/steps/generate-step';
import { HookMessageStep } from '../components/steps/hook-message-step';
import { PreviewStep } from '../components/steps/preview-step';
import { ReviewStep } from '../components/steps/review-step';
import { UploadProductStep } from '../components/steps/upload-product-step';
import { WizardStepper } from '../components/wizard-stepper';
import { packName } from '../lib/list';
import { useCharacterGeneration } from '../lib/use-character-generation';
import { resumeStep, STEP_STATUS, statusAdvances, WIZARD_STEPS } from '../lib/wizard';
import { emptyWizardData, type StepProps, type WizardData } from '../lib/wizard-data';

/** `?step=3` → the third step's index (2); null for no step or a step that is not one. */
const stepOf = (raw: string | null): number | null => {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= 1 && n <= WIZARD_STEPS.length ? n - 1 : null;
};

const parseId = (raw: string | undefined): number | null | 'invalid' => {
  if (raw === undefined) return null;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : 'invalid';
};

/**
 * /hook-packs/new and /hook-packs/new/{id}: the seven-step hook pack wizard. Opened from the list (navigation
 * state fromIndex) it starts on step 2. Each step saves its status when moving on; Finish sets 'completed'. The
 * step shown is kept in the address (`?step=3`), so a reload or coming Back shows the step the user was on.
 */
export function HookPackWizardPage() {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const routeId = parseId(params.id);
  const fromIndex = Boolean((location.state as { fromIndex?: boolean } | null)?.fromIndex);

  const [createdId, setCreatedId] = useState<number | null>(null);
  // The route's id wins; a pack created on this screen is used until the URL carries its id.
  const packId = typeof routeId === 'number' ? routeId : createdId;
  const [search, setSearch] = useSearchParams();
  const stepInAddress = stepOf(search.get('step'));
  const [step, setStep] = useState(() => stepInAddress ?? (fromIndex && routeId !== null ? 1 : 0));
  const [furthest, setFurthest] = useState(step);
  const [data, setDataState] = useState<WizardData>(emptyWizardData);
  const [advancing, setAdvancing] = useState(false);
  const failed = useRef(false);

  const pack = useHookPack(packId, { pollPreviews: step === 4 });
  const update = useUpdateHookPack();
  const generation = useCharacterGeneration(packId);

  // Load failure: toast and back to the list.
  useEffect(() => {
    if ((routeId === 'invalid' || pack.isError) && !failed.current) {
      failed.current = true;
      toast.error(MESSAGES.hookPacks.loadFailed);
      navigate('/hook-packs', { replace: true });
    }
  }, [routeId, pack.isError, navigate]);

  // Revoke the local preview of the chosen file when leaving the wizard.
  const localImage = useRef<string | null>(null);
  useEffect(() => {
    localImage.current = data.product.imageUrl;
  }, [data.product.imageUrl]);
  useEffect(
    () => () => {
      if (localImage.current) URL.revokeObjectURL(localImage.current);
    },
    [],
  );

  const setData = useCallback((fn: (d: WizardData) => WizardData) => setDataState(fn), []);

  const goTo = useCallback(
    (next: number) => {
      setStep(next);
      setFurthest((f) => Math.max(f, next));
      setSearch(
        (prev) => {
          const kept = new URLSearchParams(prev);
          kept.set('step', String(next + 1));
          return kept;
        },
        { replace: true, state: location.state },
      );
      window.scrollTo({ top: 0, behavior: 'smooth' });
    },
    [setSearch, location.state],
  );

  const onCreated = useCallback(
    (created: HookPack) => {
      setCreatedId(created.id);
      navigate(`/hook-packs/new/${created.id}`, { replace: true, state: location.state });
    },
    [navigate, location.state],
  );

  const current = pack.data ?? null;

  // Once the pack has loaded, every step its status has reached can be visited from the stepper (a reload onto a
  // later step keeps the earlier ones open). Adjusted while rendering, once per pack, as React advises for state
  // that follows loaded data.
  const [reachedFor, setReachedFor] = useState<number | null>(null);
  if (current && reachedFor !== current.id) {
    setReachedFor(current.id);
    setFurthest((f) => Math.max(f, resumeStep(current.status)));
  }
  const advance = useCallback(
    async (patch: Omit<UpdateHookPackInput, 'status'> = {}) => {
      if (!current) return false;
      const status = STEP_STATUS[step];
      const body: UpdateHookPackInput = { ...patch };
      if (status && (step === WIZARD_STEPS.length - 1 || statusAdvances(current.status, status))) body.status = status;
      setAdvancing(true);
      try {
        if (Object.keys(body).length > 0) await update.mutateAsync({ id: current.id, ...body });
      } catch (e) {
        toast.error(errorDetail(e, MESSAGES.hookPacks.generic));
        return false;
      } finally {
        setAdvancing(false);
      }
      if (step === WIZARD_STEPS.length - 1) {
        void queryClient.invalidateQueries({ queryKey: hookPackKeys.list() });
        navigate('/hook-packs');
        return true;
      }
      goTo(step + 1);
      return true;
    },
    [current, step, update, queryClient, navigate, goTo],
  );
  const back = useCallback(() => goTo(Math.max(0, step - 1)), [goTo, step]);

  const loading = packId !== null && pack.isPending;
  // How many videos a pack makes is the server's figure; none is said until it has answered.
  const videosPerPack = useServerPrices().list?.videos_per_pack ?? null;
  const props: StepProps = { pack: current, data, setData, advance, back, advancing };

  return (
    <Page className="max-w-6xl">
      <PageHeader
        title={current ? packName(current.name) : 'Create Hook Pack'}
        description={`Upload your product, describe characters, write a hook and generate a pack of ${videosPerPack === null ? '' : `${videosPerPack} `}videos.`}
        actions={
          <>
            {current ? <HookPackStatusBadge status={current.status} /> : null}
            <ButtonLink to="/hook-packs" variant="ghost" size="sm">
              <ArrowLeftIcon aria-hidden="true" /> Hook Packs
            </ButtonLink>
          </>
        }
      />
      <WizardStepper current={step} furthest={furthest} canVisit={current !== null} onSelect={goTo} />
      <div className="rounded-2xl border bg-card p-4 shadow-sm sm:p-6">
        {loading || routeId === 'invalid' || pack.isError ? (
          <div className="space-y-4" aria-busy="true" aria-label="Loading hook pack">
            <Skeleton className="h-7 w-48" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-64 w-full" />
          </div>
        ) : step === 0 ? (
          <UploadProductStep {...props} onCreated={onCreated} />
        ) : step === 1 ? (
          <CharacterTypeStep {...props} generation={generation} />
        ) : step === 2 ? (
          <HookMessageStep {...props} />
        ) : step === 3 ? (
          <CharactersStep {...props} generation={generation} />
        ) : step === 4 ? (
          <PreviewStep {...props} />
        ) : step === 5 ? (
          <GenerateStep {...props} />
        ) : (
          <ReviewStep {...props} />
        )}
      </div>
    </Page>
  );
}
