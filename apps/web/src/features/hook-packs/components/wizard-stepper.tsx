import { CheckIcon } from 'lucide-react';
import { useRef, type FormEvent, type ReactNode } from 'react';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';
import { WIZARD_STEPS } from '../lib/wizard';

/**
 * The seven-step stepper. Steps up to the furthest one reached can be revisited (when `canVisit` allows).
 * Below the xl breakpoint 'Step n of 7' with a bar; wider screens show the full list (labels wrap, never cut).
 */
export function WizardStepper({
  current,
  furthest,
  canVisit,
  onSelect,
}: {
  current: number;
  furthest: number;
  canVisit: boolean;
  onSelect: (step: number) => void;
}) {
  return (
    <nav aria-label="Hook pack steps" className="mb-8">
      <div className="mb-3 flex items-center justify-between text-sm xl:hidden">
        <span className="font-medium">
          Step {current + 1} of {WIZARD_STEPS.length}: {WIZARD_STEPS[current]}
        </span>
      </div>
      <Progress
        className="xl:hidden"
        value={((current + 1) / WIZARD_STEPS.length) * 100}
        aria-label="Wizard progress"
      />
      <ol className="hidden items-center gap-2 xl:flex">
        {WIZARD_STEPS.map((label, i) => {
          const done = i < current;
          const active = i === current;
          const reachable = canVisit && i <= furthest && !active;
          return (
            <li key={label} className="flex flex-auto items-center gap-2">
              <button
                type="button"
                disabled={!reachable}
                onClick={() => onSelect(i)}
                aria-current={active ? 'step' : undefined}
                className={cn(
                  'flex items-center gap-2 rounded-md px-1 py-1 text-left text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                  reachable && 'hover:bg-accent',
                  !reachable && !active && 'cursor-default',
                )}
              >
                <span
                  className={cn(
                    'flex size-7 shrink-0 items-center justify-center rounded-full border text-xs font-semibold',
                    active && 'border-primary bg-primary text-primary-foreground',
                    done && 'border-primary bg-primary/10 text-primary',
                    !active && !done && 'text-muted-foreground',
                  )}
                >
                  {done ? <CheckIcon className="size-3.5" aria-hidden="true" /> : i + 1}
                </span>
                <span className={cn('text-sm leading-tight', active ? 'font-semibold' : 'text-muted-foreground')}>
                  {label}
                </span>
              </button>
              {i < WIZARD_STEPS.length - 1 ? (
                <span className="h-px min-w-2 flex-1 bg-border" aria-hidden="true" />
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** One step's frame: heading, body and a Back / Continue footer. The body is a form, so Enter continues. */
export function StepFrame({
  title,
  description,
  children,
  onBack,
  onContinue,
  continueLabel = 'Continue',
  continueDisabled,
  busy,
  error,
  extraActions,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  onBack?: () => void;
  /** A returned promise keeps further submits out until it settles. */
  onContinue?: () => void | Promise<unknown>;
  continueLabel?: string;
  continueDisabled?: boolean;
  busy?: boolean;
  error?: string | null;
  extraActions?: ReactNode;
}) {
  // A double click submits twice before `busy` renders: ignore submits while the first one's work runs.
  const running = useRef(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy || continueDisabled || running.current) return;
    running.current = true;
    void Promise.resolve(onContinue?.()).finally(() => {
      running.current = false;
    });
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-labelledby="wizard-step-title">
      <div className="space-y-1">
        <h2 id="wizard-step-title" className="text-xl font-semibold">
          {title}
        </h2>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
      <FormError className="font-medium">{error}</FormError>
      <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          {onBack ? (
            <Button type="button" variant="outline" onClick={onBack} className="w-full sm:w-auto">
              Back
            </Button>
          ) : null}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          {extraActions}
          {onContinue ? (
            <Button type="submit" variant="brand" disabled={continueDisabled || busy} className="w-full sm:w-auto">
              {busy ? 'Saving...' : continueLabel}
            </Button>
          ) : null}
        </div>
      </div>
    </form>
  );
}
