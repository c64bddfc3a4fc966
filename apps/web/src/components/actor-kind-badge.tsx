import type { Avatar } from '@hookreel/contracts';
import { Badge } from '@/components/ui/badge';

/** What a video with this actor will look like: a real photo animated, or a drawn actor (decision 202). */
export function ActorKindBadge({ avatar, className }: { avatar: Pick<Avatar, 'kind' | 'own'>; className?: string }) {
  return (
    <Badge
      variant={avatar.kind === 'photo' ? 'blue' : 'gray'}
      className={className}
      data-testid="actor-kind"
      title={
        avatar.kind === 'photo'
          ? 'A real photo, animated to talk. Videos are labelled AI-generated.'
          : 'A drawn actor: videos look illustrated.'
      }
    >
      {avatar.kind === 'photo' ? (avatar.own ? 'Photo · yours' : 'Photo') : 'Illustrated'}
    </Badge>
  );
}
