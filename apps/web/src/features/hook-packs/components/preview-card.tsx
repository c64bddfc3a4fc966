import { ActorKindBadge } from '@/components/actor-kind-badge';
import { CostTag } from '@/components/cost-tag';
import { type PreviewCharacter } from '@hookreel/contracts';
import { CheckIcon, ChevronDownIcon, Loader2Icon, MoveIcon, RefreshCwIcon, UserRoundIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import type { RegenerateReason } from '../api/regenerate-preview';
import { useServerPrices } from '@/lib/api/prices';

/** One preview: the character holding the product, with approve, adjust and regenerate. */
export function PreviewCard({
  preview,
  characterUrl,
  title,
  generating,
  onToggleApproval,
  onEdit,
  onRegenerate,
  kind = 'illustrated',
}: {
  preview: PreviewCharacter;
  characterUrl: string;
  /** Photo: one of the user's own creators, whose person cannot be regenerated (decision 207). */
  kind?: 'photo' | 'illustrated';
  title: string;
  generating: boolean;
  onToggleApproval: () => void;
  onEdit: () => void;
  onRegenerate: (reason: RegenerateReason) => void;
}) {
  const prices = useServerPrices();
  const placeholder = preview.id < 0;
  const pending = !placeholder && !preview.url && !preview.errors;
  const src = staticUrl(preview.url) ?? (placeholder ? staticUrl(characterUrl) : undefined);
  return (
    <article
      className={cn(
        'overflow-hidden rounded-xl border bg-card transition-shadow',
        preview.approved && 'border-primary ring-2 ring-primary/30',
      )}
      data-testid="preview-card"
      aria-label={title}
    >
      <div className="relative aspect-[9/16] bg-muted">
        {src ? (
          <img src={src} alt={title} className={cn('size-full object-cover', placeholder && 'opacity-50')} />
        ) : null}
        {!src && !pending ? (
          <span className="flex size-full items-center justify-center text-muted-foreground">
            <UserRoundIcon className="size-10" aria-hidden="true" />
          </span>
        ) : null}
        {pending || (placeholder && generating) ? (
          <span className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-background/60 text-xs">
            <Loader2Icon className="size-5 animate-spin" aria-hidden="true" /> Generating preview...
          </span>
        ) : null}
        <ActorKindBadge
          avatar={{ kind, own: kind === 'photo' }}
          className={cn('absolute left-2', placeholder && !generating ? 'top-10' : 'top-2')}
        />
        {placeholder && !generating ? (
          <span className="absolute inset-x-2 top-2 rounded-md bg-background/90 px-2 py-1 text-center text-xs">
            No preview yet
          </span>
        ) : null}
        {preview.errors ? (
          <span
            role="alert"
            className="absolute inset-x-2 bottom-2 rounded-md bg-destructive/90 px-2 py-1 text-xs text-white"
          >
            {preview.errors}
          </span>
        ) : null}
      </div>
      <div className="grid gap-2 p-3">
        <Button
          type="button"
          size="sm"
          variant={preview.approved ? 'default' : 'outline'}
          aria-pressed={placeholder ? undefined : preview.approved}
          onClick={onToggleApproval}
          disabled={pending}
        >
          {preview.approved ? <CheckIcon aria-hidden="true" /> : null}
          {placeholder ? 'Position product' : preview.approved ? 'Approved' : 'Approve'}
        </Button>
        <div className="grid grid-cols-2 gap-2">
          <Button type="button" size="sm" variant="ghost" onClick={onEdit}>
            <MoveIcon aria-hidden="true" /> Adjust
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button type="button" size="sm" variant="ghost" disabled={pending}>
                <RefreshCwIcon aria-hidden="true" /> Redo <ChevronDownIcon className="size-3" aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {/* Each regenerate is a new preview, priced like one. */}
              <DropdownMenuItem onSelect={() => onRegenerate('product')}>
                Regenerate product placement <CostTag credits={prices.cost('previewImage')} />
              </DropdownMenuItem>
              {kind === 'photo' ? null : (
                <DropdownMenuItem onSelect={() => onRegenerate('person')}>
                  Regenerate person <CostTag credits={prices.cost('previewImage')} />
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
    </article>
  );
}
