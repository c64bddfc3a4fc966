import { Loader2Icon } from 'lucide-react';

/** A wizard step's live line: how many are picked so far, and a spinner while more are being made. */
export function StepStatus({
  testId,
  text,
  working,
  workingText,
}: {
  testId: string;
  text: string;
  working: boolean;
  workingText: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground" aria-live="polite">
      <span data-testid={testId}>{text}</span>
      {working ? (
        <span className="flex items-center gap-1.5">
          <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> {workingText}
        </span>
      ) : null}
    </div>
  );
}
