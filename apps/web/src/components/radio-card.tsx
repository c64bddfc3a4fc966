import { CheckIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** What a card says of its option, and whether it can be picked. */
export interface RadioCardFace {
  title: ReactNode;
  hint: ReactNode;
  media?: ReactNode;
  disabled?: boolean;
  describedBy?: string;
}

/**
 * A radio group drawn as cards, one an option in `className`'s layout: `face` says what each card shows.
 */
export function RadioCards<T extends string>({
  options,
  value,
  onChange,
  face,
  className,
}: {
  options: readonly T[];
  value: T;
  onChange: (option: T) => void;
  face: (option: T) => RadioCardFace;
  className?: string;
}) {
  const name = useId();
  return (
    <div className={className}>
      {options.map((option) => (
        <RadioCard
          key={option}
          name={name}
          value={option}
          checked={option === value}
          onSelect={() => onChange(option)}
          {...face(option)}
        />
      ))}
    </div>
  );
}

/**
 * One choice of a radio group drawn as a card: a title, a hint and a tick when chosen, with a picture above them
 * when there is one. The native radio stays (hidden, focusable), so the arrow keys and forms work as usual.
 */
function RadioCard({
  name,
  value,
  checked,
  onSelect,
  disabled,
  describedBy,
  title,
  hint,
  media,
}: {
  name: string;
  value: string;
  checked: boolean;
  onSelect: () => void;
  disabled?: boolean;
  describedBy?: string;
  title: ReactNode;
  hint: ReactNode;
  media?: ReactNode;
}) {
  const text = (
    <>
      <span className="min-w-0">
        <span className="block text-sm font-medium">{title}</span>
        <span className="block text-xs text-muted-foreground">{hint}</span>
      </span>
      {checked ? <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" /> : null}
    </>
  );
  return (
    <label
      className={cn(
        'relative flex cursor-pointer rounded-lg border bg-card text-left',
        media ? 'group flex-col overflow-hidden transition-shadow' : 'items-start justify-between gap-2 p-3',
        'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
        checked ? 'border-primary ring-2 ring-primary' : 'hover:shadow-md',
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={onSelect}
        className="sr-only"
      />
      {media ? (
        <>
          {media}
          <span className="flex items-start justify-between gap-1 p-2">{text}</span>
        </>
      ) : (
        text
      )}
    </label>
  );
}
