import {
  BIDI_CONTROL_MESSAGE,
  CTA_MAX,
  cellKey,
  formatCredits,
  hasNoBidiControls,
  type HookPack,
  LIMITS,
  MATRIX_LIMITS,
  MATRIX_MESSAGES,
  matrixCells,
  VALIDATION,
  variantId,
  withCost,
  creditsTimes,
  roundCredits,
} from '@hookreel/contracts';
import { PlusIcon, XIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ActorKindBadge } from '@/components/actor-kind-badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useAuth } from '@/lib/auth';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { useOwnCreators } from '../../api/pack-creators';
import { approvedCharacterIds } from '../../lib/variants';
import { HookLineField } from '../hook-line-field';
import { usePackVideoStyle } from '../pack-video-style';
import { StepFrame } from '../wizard-stepper';
import { useStartPackVideos } from './use-start-videos';

/**
 * Matrix mode of the Generate step (docs/product.md#hook-matrix): hooks × approved actors × calls to action, the
 * grid's size and price before anything is spent, every cell ticked until the user unticks it.
 */
export function MatrixEditor({
  pack,
  hook,
  back,
  modeSwitch,
  onStarted,
}: {
  pack: HookPack;
  hook: string;
  back: () => void;
  modeSwitch: React.ReactNode;
  onStarted: () => void;
}) {
  const { user } = useAuth();
  const style = usePackVideoStyle(pack);
  const price = style.perVideo;
  const approvedIds = approvedCharacterIds(pack.preview_characters);
  const [hooks, setHooks] = useState<string[]>(() => [hook.trim()]);
  const [actors, setActors] = useState<number[]>(approvedIds);
  const [ctas, setCtas] = useState<string[]>(() => [pack.cta_text?.trim() || 'Shop now']);
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const { start, pending } = useStartPackVideos({ packId: pack.id, style, onStarted, onRefused: setError });

  const chosenActors = approvedIds.filter((id) => actors.includes(id));
  const characterOf = new Map(pack.generated_characters.map((c) => [c.id, c]));
  // The user's creators not yet approved in this pack join from the Characters step (a preview places the product).
  const creators = useOwnCreators();
  const approvedCreators = new Set(approvedIds.map((id) => characterOf.get(id)?.creator_id ?? null));
  const creatorsLeft = (creators.data ?? []).filter((c) => !approvedCreators.has(c.id));
  /** A creator by their name, as their videos are named; a drawn character by its place among the approved. */
  const actorName = (id: number): string => {
    const c = characterOf.get(id);
    return c?.kind === 'photo' ? c.prompt : `Character ${approvedIds.indexOf(id) + 1}`;
  };
  const previewOf = new Map(
    pack.preview_characters.filter((p) => p.approved && p.url).map((p) => [p.generated_character_id, p.url as string]),
  );
  const cells = matrixCells({ hooks: hooks.length, actors: chosenActors.length, ctas: ctas.length });
  const ticked = cells.filter((c) => !unticked.has(cellKey(c)));
  const cost = price === null ? null : creditsTimes(price, ticked.length);
  const left = cost === null ? null : roundCredits((user?.credits ?? 0) - cost);
  const idOf = (c: { hook: number; actor: number; cta: number }) =>
    variantId(c.hook + 1, approvedIds.indexOf(chosenActors[c.actor] as number) + 1, c.cta + 1);

  // Any change of the lists renumbers the cells: start again from every cell ticked.
  const edit = (fn: () => void) => {
    setError(null);
    setUnticked(new Set());
    fn();
  };

  const check = (): string | null => {
    if (hooks.some((h) => !h.trim())) return VALIDATION.hookRequired;
    if (new Set(hooks.map((h) => h.trim().toLowerCase())).size !== hooks.length) return MATRIX_MESSAGES.duplicateHook;
    if (chosenActors.length === 0) return MATRIX_MESSAGES.noActors;
    if (ctas.some((c) => !c.trim())) return MATRIX_MESSAGES.noCtas;
    if (new Set(ctas.map((c) => c.trim().toLowerCase())).size !== ctas.length) return MATRIX_MESSAGES.duplicateCta;
    if (![...hooks, ...ctas].every(hasNoBidiControls)) return BIDI_CONTROL_MESSAGE;
    if (ticked.length === 0) return MATRIX_MESSAGES.noCells;
    if (ticked.length > MATRIX_LIMITS.cellsMax) return MATRIX_MESSAGES.tooManyCells;
    return null;
  };

  const generate = () => {
    const problem = check();
    if (problem) {
      setError(problem);
      return;
    }
    return start({
      matrix: {
        hooks: hooks.map((h) => h.trim()),
        character_ids: chosenActors,
        ctas: ctas.map((c) => c.trim()),
        cells: ticked.length === cells.length ? undefined : ticked,
      },
    });
  };

  const label = `Generate ${ticked.length} ${ticked.length === 1 ? 'video' : 'videos'}`;
  return (
    <StepFrame
      title="Generate"
      description="Test every hook with every actor and call to action. Each video is named by its cell (H2-A1-C1: hook 2, actor 1, call to action 1) so ad results join back."
      onBack={back}
      onContinue={generate}
      continueLabel={pending ? 'Starting...' : cost === null ? label : withCost(label, cost)}
      busy={pending}
      error={error}
    >
      {modeSwitch}
      {style.pickers(pending)}
      <div className="grid gap-4 lg:grid-cols-3">
        <LineList kind={HOOKS} lines={hooks} onChange={(next) => edit(() => setHooks(next))} />

        <fieldset className="space-y-2 rounded-xl border p-3">
          <legend className="px-1 text-sm font-medium">
            Actors ({chosenActors.length}/{approvedIds.length} approved)
          </legend>
          {approvedIds.length === 0 ? (
            <p className="text-sm text-muted-foreground">{VALIDATION.noApprovedPreviews}</p>
          ) : (
            approvedIds.map((id, k) => (
              <label key={id} className="flex cursor-pointer items-center gap-3 rounded-md p-1 hover:bg-accent/50">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={actors.includes(id)}
                  onChange={(e) =>
                    edit(() => setActors(e.target.checked ? [...actors, id] : actors.filter((a) => a !== id)))
                  }
                />
                <span className="aspect-[9/16] w-8 shrink-0 overflow-hidden rounded bg-muted">
                  {previewOf.get(id) ? (
                    <img src={staticUrl(previewOf.get(id))} alt="" className="size-full object-cover" />
                  ) : null}
                </span>
                <span className="min-w-0 flex-1 text-sm">
                  <span className="text-xs font-medium text-muted-foreground">A{k + 1}</span> {actorName(id)}
                  <ActorKindBadge
                    className="mt-0.5 flex w-fit"
                    avatar={{
                      kind: characterOf.get(id)?.kind ?? 'illustrated',
                      own: characterOf.get(id)?.kind === 'photo',
                    }}
                  />
                </span>
              </label>
            ))
          )}
          {creatorsLeft.length > 0 ? (
            <p className="text-xs text-muted-foreground" data-testid="matrix-creators-hint">
              Your creators {creatorsLeft.map((c) => c.name).join(', ')} can join the matrix: pick them at the
              Characters step and approve their preview.
            </p>
          ) : null}
        </fieldset>

        <LineList kind={CTAS} lines={ctas} onChange={(next) => edit(() => setCtas(next))} />
      </div>

      <div className="space-y-1 rounded-xl border bg-muted/30 p-3" aria-live="polite">
        <p data-testid="matrix-size" className="text-sm font-medium">
          Grid: {hooks.length} {hooks.length === 1 ? 'hook' : 'hooks'} × {chosenActors.length}{' '}
          {chosenActors.length === 1 ? 'actor' : 'actors'} × {ctas.length} {ctas.length === 1 ? 'CTA' : 'CTAs'} ={' '}
          {cells.length} {cells.length === 1 ? 'video' : 'videos'}, {ticked.length} ticked
        </p>
        <p
          data-testid="matrix-price"
          className={cn('text-sm text-muted-foreground', left !== null && left < 0 && 'text-destructive')}
        >
          {cost === null ? (
            'Loading prices...'
          ) : (
            <>
              {ticked.length} {ticked.length === 1 ? 'video costs' : 'videos cost'} {formatCredits(cost)} credits
              {price !== null ? ` (${formatCredits(price)} each)` : ''}.{' '}
              {left !== null && left < 0 ? (
                <>
                  You need {formatCredits(-left)} more.{' '}
                  <Link to="/credits" className="font-medium underline underline-offset-4">
                    Get credits
                  </Link>
                </>
              ) : (
                <>Your balance after: {formatCredits(left ?? 0)} credits.</>
              )}
            </>
          )}
        </p>
      </div>

      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Matrix cells">
        {cells.map((c) => {
          const id = idOf(c);
          const on = !unticked.has(cellKey(c));
          return (
            <li key={cellKey(c)}>
              <label
                className={cn(
                  'flex cursor-pointer items-start gap-2 rounded-lg border p-2 text-sm',
                  !on && 'opacity-60',
                )}
                data-testid="matrix-cell"
              >
                <input
                  type="checkbox"
                  className="mt-0.5 size-4"
                  aria-label={`Video ${id}`}
                  checked={on}
                  onChange={() => {
                    setError(null);
                    const next = new Set(unticked);
                    if (on) next.add(cellKey(c));
                    else next.delete(cellKey(c));
                    setUnticked(next);
                  }}
                />
                <span className="min-w-0">
                  <span className="block font-mono text-xs font-semibold">{id}</span>
                  <span className="block truncate">“{hooks[c.hook] || '…'}”</span>
                  <span className="block truncate text-xs text-muted-foreground">
                    {actorName(chosenActors[c.actor] as number)} · {ctas[c.cta] || '…'}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </StepFrame>
  );
}

type LineField = (props: { 'aria-label': string; value: string; onValueChange: (value: string) => void }) => ReactNode;

/** What a list of lines is: its legend, the letter its cells are named by, one line's name, its size and field. */
interface LineKind {
  legend: string;
  prefix: string;
  noun: string;
  max: number;
  Field: LineField;
}

const HOOKS: LineKind = {
  legend: 'Hooks',
  prefix: 'H',
  noun: 'hook',
  max: MATRIX_LIMITS.hooksMax,
  Field: (props) => <HookLineField {...props} maxLength={LIMITS.hookTextMax} />,
};

const CTAS: LineKind = {
  legend: 'Calls to action',
  prefix: 'C',
  noun: 'call to action',
  max: MATRIX_LIMITS.ctasMax,
  Field: ({ onValueChange, ...props }) => (
    <Input {...props} maxLength={CTA_MAX} onChange={(e) => onValueChange(e.target.value)} />
  ),
};

/** A numbered list of lines (H1, H2… or C1, C2…) the user edits, adds to up to `max` and removes from down to one. */
function LineList({
  kind: { legend, prefix, noun, max, Field },
  lines,
  onChange,
}: {
  kind: LineKind;
  lines: string[];
  onChange: (next: string[]) => void;
}) {
  const label = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <fieldset className="space-y-2 rounded-xl border p-3">
      <legend className="px-1 text-sm font-medium">
        {legend} ({lines.length}/{max})
      </legend>
      {lines.map((line, i) => (
        <div key={i} className="flex items-center gap-2">
          <span className="w-7 shrink-0 text-xs font-medium text-muted-foreground">
            {prefix}
            {i + 1}
          </span>
          <Field
            aria-label={`${label} ${i + 1}`}
            value={line}
            onValueChange={(value) => onChange(lines.map((x, j) => (j === i ? value : x)))}
          />
          {lines.length > 1 ? (
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove ${noun} ${i + 1}`}
              onClick={() => onChange(lines.filter((_, j) => j !== i))}
            >
              <XIcon aria-hidden="true" />
            </Button>
          ) : null}
        </div>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={lines.length >= max}
        onClick={() => onChange([...lines, ''])}
      >
        <PlusIcon aria-hidden="true" /> Add {noun}
      </Button>
    </fieldset>
  );
}
