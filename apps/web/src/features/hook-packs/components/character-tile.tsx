import { CheckIcon, ImageOffIcon, Loader2Icon, RotateCcwIcon, UserRoundIcon } from 'lucide-react';
import { useState } from 'react';
import { ActorTalkingPreview } from '@/components/actor-talking-preview';
import { Button } from '@/components/ui/button';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

export type TileState = 'ready' | 'pending' | 'failed' | 'placeholder';

/** One generated character: a 9:16 portrait that toggles selection (a pressed button). */
export function CharacterTile({
  url,
  prompt,
  selected,
  state,
  onToggle,
  onRetry,
  label,
  badge,
  previewUrl = null,
}: {
  url: string;
  prompt: string;
  selected: boolean;
  state: TileState;
  onToggle: () => void;
  onRetry?: () => void;
  label: string;
  /** What its videos look like (Photo or Illustrated), shown on the tile's corner. */
  badge?: React.ReactNode;
  /** A creator's talking preview (decision 207): a muted loop over the photo once it is ready. */
  previewUrl?: string | null;
}) {
  const [broken, setBroken] = useState(false);
  const src = staticUrl(url);
  const selectable = state === 'ready';
  return (
    <div className="relative" data-testid="character-tile" data-state={state}>
      <button
        type="button"
        aria-pressed={selectable ? selected : undefined}
        aria-label={label}
        disabled={!selectable}
        onClick={onToggle}
        title={prompt}
        className={cn(
          'group relative block aspect-[9/16] w-full overflow-hidden rounded-lg border-2 bg-muted outline-none transition-all focus-visible:ring-[3px] focus-visible:ring-ring/50',
          selected ? 'border-primary shadow-md shadow-primary/20' : 'border-transparent hover:border-primary/40',
          !selectable && 'cursor-default',
        )}
      >
        {state === 'ready' && previewUrl ? (
          <ActorTalkingPreview photoUrl={url} previewUrl={previewUrl} name={prompt} />
        ) : state === 'ready' && src && !broken ? (
          <img src={src} alt="" loading="lazy" className="size-full object-cover" onError={() => setBroken(true)} />
        ) : state === 'pending' ? (
          <span className="flex size-full flex-col items-center justify-center gap-2 text-xs text-muted-foreground">
            <Loader2Icon className="size-5 animate-spin" aria-hidden="true" /> Generating...
          </span>
        ) : state === 'ready' ? (
          <span className="flex size-full items-center justify-center text-muted-foreground">
            <ImageOffIcon className="size-5" aria-hidden="true" />
          </span>
        ) : (
          <span className="flex size-full flex-col items-center justify-center gap-2 bg-gradient-to-b from-muted to-muted-foreground/10 p-2 text-center text-xs text-muted-foreground">
            <UserRoundIcon className="size-10 opacity-50" aria-hidden="true" />
            {state === 'failed' ? 'Generation failed' : 'Placeholder'}
          </span>
        )}
        {badge ? <span className="absolute top-2 left-2">{badge}</span> : null}
        {selected ? (
          <span className="absolute top-2 right-2 flex size-6 items-center justify-center rounded-full bg-primary text-primary-foreground shadow">
            <CheckIcon className="size-3.5" aria-hidden="true" />
          </span>
        ) : null}
      </button>
      {onRetry && (state === 'failed' || state === 'placeholder') ? (
        <Button type="button" size="sm" variant="secondary" className="absolute inset-x-2 bottom-2" onClick={onRetry}>
          <RotateCcwIcon aria-hidden="true" /> Retry
        </Button>
      ) : null}
    </div>
  );
}
