import type { Avatar } from '@hookreel/contracts';
import { CheckIcon } from 'lucide-react';
import { ActorKindBadge } from '@/components/actor-kind-badge';
import { ActorTalkingPreview } from '@/components/actor-talking-preview';
import { cn } from '@/lib/utils';

export const actorName = (a: Pick<Avatar, 'id' | 'name'>) => a.name ?? `Actor ${a.id}`;

export function ActorTile({ avatar, selected, onToggle }: { avatar: Avatar; selected: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      data-testid="actor-tile"
      onClick={onToggle}
      className={cn(
        'group relative overflow-hidden rounded-xl border-2 bg-card text-left shadow-sm transition-all outline-none hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50',
        selected ? 'border-primary ring-2 ring-primary/30' : 'border-transparent',
      )}
    >
      <span className="relative block aspect-[9/16] bg-muted">
        <ActorTalkingPreview
          photoUrl={avatar.url}
          previewUrl={avatar.preview_url}
          name={actorName(avatar)}
          avatarId={avatar.photoreal ? undefined : avatar.id}
          decorative
        />
        <ActorKindBadge avatar={avatar} className="absolute bottom-2 left-2" />
        <span
          className={cn(
            'absolute top-2 right-2 flex size-7 items-center justify-center rounded-full border-2 border-white shadow transition-colors',
            selected ? 'bg-primary text-primary-foreground' : 'bg-black/30 text-transparent',
          )}
        >
          <CheckIcon className="size-4" aria-hidden="true" />
        </span>
      </span>
      <span className="flex items-center justify-between gap-2 px-2.5 py-2">
        <span className="truncate text-sm font-medium">{actorName(avatar)}</span>
        <span className="shrink-0 rounded-full bg-muted px-2 py-0.5 text-[10px] text-muted-foreground capitalize">
          {avatar.size}
        </span>
      </span>
    </button>
  );
}
