import { type Avatar, FRAME } from '@hookreel/contracts';
import { PencilRulerIcon, Trash2Icon } from 'lucide-react';
import {
  ContextMenu,
  ContextMenuContent,
  ContextMenuItem,
  ContextMenuSeparator,
  ContextMenuTrigger,
} from '@/components/ui/context-menu';
import { staticUrl } from '@/lib/urls';

/** The saved bounds as a rotated rectangle in percentages of the 576x1024 frame, or null. */
export function boundsOverlayStyle(a: Pick<Avatar, 'x' | 'y' | 'width' | 'height' | 'rotation'>) {
  if (a.x === null || a.y === null || !a.width || !a.height) return null;
  return {
    left: `${(a.x / FRAME.width) * 100}%`,
    top: `${(a.y / FRAME.height) * 100}%`,
    width: `${(a.width / FRAME.width) * 100}%`,
    height: `${(a.height / FRAME.height) * 100}%`,
    transform: `rotate(${a.rotation ?? 0}deg)`,
    transformOrigin: 'center',
  };
}

export interface AvatarCardActions {
  onEdit: () => void;
  onDelete: () => void;
}

/** One library avatar; `actions` (administrators only) adds Edit Bounds and Delete. */
export function AvatarCard({ avatar, actions }: { avatar: Avatar; actions: AvatarCardActions | null }) {
  const overlay = boundsOverlayStyle(avatar);
  const tile = (
    <span className="relative block w-full bg-muted" style={{ paddingBottom: '177.78%' }}>
      <img
        src={staticUrl(avatar.url)}
        alt={avatar.prompt ?? `Avatar ${avatar.id}`}
        loading="lazy"
        draggable={false}
        className="absolute inset-0 size-full object-cover"
      />
      {overlay ? (
        <span
          data-testid="bounds-overlay"
          className="pointer-events-none absolute border-2 border-blue-500 bg-blue-500/20"
          style={overlay}
        />
      ) : null}
    </span>
  );
  const caption = (
    <span className={`line-clamp-2 px-2.5 py-2 text-xs ${avatar.prompt ? '' : 'text-muted-foreground italic'}`}>
      {avatar.prompt ?? 'No prompt'}
    </span>
  );
  if (!actions) {
    return (
      <div data-testid="avatar-card" className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm">
        {tile}
        {caption}
      </div>
    );
  }
  const { onEdit, onDelete } = actions;
  return (
    <ContextMenu>
      <ContextMenuTrigger asChild>
        <button
          type="button"
          data-testid="avatar-card"
          onClick={onEdit}
          className="group flex touch-manipulation flex-col overflow-hidden rounded-xl border bg-card text-left shadow-sm transition-shadow outline-none select-none hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50 [-webkit-touch-callout:none]"
        >
          {tile}
          {caption}
        </button>
      </ContextMenuTrigger>
      <ContextMenuContent>
        <ContextMenuItem onSelect={onEdit}>
          <PencilRulerIcon aria-hidden="true" /> Edit Bounds
        </ContextMenuItem>
        <ContextMenuSeparator />
        <ContextMenuItem variant="destructive" onSelect={onDelete}>
          <Trash2Icon aria-hidden="true" /> Delete
        </ContextMenuItem>
      </ContextMenuContent>
    </ContextMenu>
  );
}
