import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

/** How long after a creator is added their talking preview may still be rendering (decision 207). */
const PREVIEW_WAIT_MS = 10 * 60_000;

/** Whether an actor added at `createdAt` without a preview yet is still expected to get one soon. */
export const previewPending = (a: { preview_url: string | null; created_at: string }, now = Date.now()): boolean =>
  a.preview_url === null && now - Date.parse(a.created_at) < PREVIEW_WAIT_MS;

/**
 * An actor's picture on a card: once their talking preview is ready, a muted looping video of them talking (the
 * photo as its poster); until then, the photo (decision 207).
 */
export function ActorTalkingPreview({
  photoUrl,
  previewUrl,
  name,
  className,
}: {
  photoUrl: string;
  previewUrl: string | null;
  name: string;
  className?: string;
}) {
  const classes = cn('absolute inset-0 size-full object-cover', className);
  return previewUrl ? (
    <video
      key={previewUrl}
      src={staticUrl(previewUrl)}
      poster={staticUrl(photoUrl)}
      muted
      loop
      autoPlay
      playsInline
      preload="metadata"
      aria-label={`${name} talking`}
      data-testid="actor-talking-preview"
      className={classes}
    />
  ) : (
    <img src={staticUrl(photoUrl)} alt={name} className={classes} />
  );
}
