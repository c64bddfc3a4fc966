import { LoaderCircleIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTalkingPreview } from '@/lib/api/talking-preview';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

/** How long after a creator is added their talking preview may still be rendering (decision 207). */
const PREVIEW_WAIT_MS = 10 * 60_000;

/** Whether an actor added at `createdAt` without a preview yet is still expected to get one soon. */
export const previewPending = (a: { preview_url: string | null; created_at: string }, now = Date.now()): boolean =>
  a.preview_url === null && now - Date.parse(a.created_at) < PREVIEW_WAIT_MS;

/**
 * Whether the card around `el` has been pointed at or focused: a preview is asked for only for the actors a user
 * looks at, not for a whole grid at once (decision 219). The card is the nearest button or link.
 */
function useLookedAt(el: React.RefObject<HTMLElement | null>, watch: boolean): boolean {
  const [looked, setLooked] = useState(false);
  useEffect(() => {
    const card = el.current?.closest<HTMLElement>('button, a, [tabindex]') ?? el.current?.parentElement;
    if (!watch || looked || !card) return;
    const look = () => setLooked(true);
    card.addEventListener('pointerenter', look);
    card.addEventListener('focusin', look);
    return () => {
      card.removeEventListener('pointerenter', look);
      card.removeEventListener('focusin', look);
    };
  }, [el, watch, looked]);
  return looked;
}

/**
 * An actor's picture on a card: once their talking preview is ready, a muted looping video of them talking (the
 * picture as its poster); until then, the picture (decision 207). With `avatarId`, an actor without a preview gets
 * one made when the user first points at or focuses the card (decision 219). A catalogue actor the user made
 * photoreal passes none: the catalogue's shared preview is of the drawn actor, not of their still.
 */
export function ActorTalkingPreview({
  photoUrl,
  previewUrl,
  name,
  avatarId,
  decorative = false,
  className,
}: {
  photoUrl: string;
  previewUrl: string | null;
  name: string;
  avatarId?: number;
  /** The card names the actor beside the picture: the picture itself says nothing more. */
  decorative?: boolean;
  className?: string;
}) {
  const picture = useRef<HTMLImageElement>(null);
  const looked = useLookedAt(picture, avatarId !== undefined && !previewUrl);
  const asked = useTalkingPreview(avatarId, looked && !previewUrl);
  const shown = previewUrl ?? asked.data?.preview_url ?? null;
  const classes = cn('absolute inset-0 size-full object-cover', className);
  if (shown)
    return (
      <video
        key={shown}
        src={staticUrl(shown)}
        poster={staticUrl(photoUrl)}
        muted
        loop
        autoPlay
        playsInline
        preload="metadata"
        // On a card that names the actor the video is decoration: it must not change the card's accessible name.
        aria-label={decorative ? undefined : `${name} talking`}
        aria-hidden={decorative ? true : undefined}
        data-testid="actor-talking-preview"
        className={classes}
      />
    );
  return (
    <>
      <img ref={picture} src={staticUrl(photoUrl)} alt={decorative ? '' : name} loading="lazy" className={classes} />
      {asked.data?.status === 'rendering' ? (
        // Bottom right: the cards keep their other corners for the kind badge, the tick and "Best match".
        <span
          role="status"
          className="absolute right-1.5 bottom-1.5 flex items-center gap-1 rounded-full bg-black/55 px-1.5 py-0.5 text-[10px] font-medium text-white"
        >
          <LoaderCircleIcon className="size-3 animate-spin" aria-hidden="true" />
          <span className="sr-only">Preparing preview…</span>
        </span>
      ) : null}
    </>
  );
}
