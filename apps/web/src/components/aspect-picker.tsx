import { ASPECT_LABELS, ASPECT_SIZES, ASPECTS, DEFAULT_ASPECT, type Aspect } from '@hookreel/contracts';
import { cn } from '@/lib/utils';

/** A small outline of a frame shape, drawn to its proportions (the tallest side is 20 px). */
export function AspectIcon({ aspect, className }: { aspect: Aspect; className?: string }) {
  const { width, height } = ASPECT_SIZES[aspect];
  const k = 20 / Math.max(width, height);
  const w = Math.round(width * k);
  const h = Math.round(height * k);
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      className={cn('shrink-0', className)}
      data-testid={`aspect-icon-${aspect}`}
    >
      <rect
        x={(24 - w) / 2}
        y={(24 - h) / 2}
        width={w}
        height={h}
        rx="2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
    </svg>
  );
}

/**
 * Which frame shapes each video is exported in: 9:16 is always made (ticked and locked), 4:5 and 1:1 are extra
 * files of the same job, re-composed from the 9:16 render at no extra credit (docs/video-design.md#aspects).
 */
export function AspectPicker({
  value,
  onChange,
  disabled,
  className,
}: {
  value: readonly Aspect[];
  onChange: (aspects: Aspect[]) => void;
  disabled?: boolean;
  className?: string;
}) {
  const toggle = (aspect: Aspect, on: boolean) =>
    onChange(ASPECTS.filter((a) => a === DEFAULT_ASPECT || (a === aspect ? on : value.includes(a))));
  return (
    <fieldset className={cn('min-w-0 space-y-2', className)} disabled={disabled} data-testid="aspect-picker">
      <legend className="mb-2 text-sm leading-none font-medium">Frame shapes</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {ASPECTS.map((aspect) => {
          const locked = aspect === DEFAULT_ASPECT;
          const checked = locked || value.includes(aspect);
          const { width, height } = ASPECT_SIZES[aspect];
          return (
            <label
              key={aspect}
              className={cn(
                'flex items-center gap-3 rounded-lg border bg-card p-3 text-left',
                locked ? 'cursor-default' : 'cursor-pointer hover:shadow-md',
                'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
                checked ? 'border-primary' : '',
              )}
            >
              <input
                type="checkbox"
                checked={checked}
                disabled={locked}
                onChange={(e) => toggle(aspect, e.target.checked)}
                className="size-4 shrink-0 accent-primary"
                aria-label={`${aspect} (${ASPECT_LABELS[aspect].hint})`}
                data-testid={`aspect-${aspect}`}
              />
              <AspectIcon aspect={aspect} className={checked ? 'text-primary' : 'text-muted-foreground'} />
              <span className="min-w-0">
                <span className="block text-sm font-medium">
                  {ASPECT_LABELS[aspect].name}
                  <span className="ml-2 font-normal text-muted-foreground tabular-nums">
                    {width}x{height}
                  </span>
                </span>
                <span className="block text-xs text-muted-foreground">
                  {locked ? `${ASPECT_LABELS[aspect].hint} · always made` : ASPECT_LABELS[aspect].hint}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <p className="text-xs text-muted-foreground">
        Extra shapes are cut from the same render with the text laid out again: no extra credits.
      </p>
    </fieldset>
  );
}

/** The shapes a video was exported in, as a short line of frame icons and ratios ('9:16 · 4:5 · 1:1'). */
export function AspectList({ aspects, className }: { aspects: readonly Aspect[]; className?: string }) {
  return (
    <ul
      className={cn('flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground', className)}
      data-testid="job-aspects"
      aria-label={`Frame shapes: ${aspects.join(', ')}`}
    >
      {aspects.map((a) => (
        <li key={a} className="inline-flex items-center gap-0.5">
          <AspectIcon aspect={a} className="size-4" />
          {a}
        </li>
      ))}
    </ul>
  );
}
