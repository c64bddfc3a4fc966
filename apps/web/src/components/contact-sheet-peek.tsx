import { useState, type ReactNode } from 'react';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

/**
 * Wraps a job's card or link and shows the video's contact sheet (6 frames, 3x2) while the pointer is over it or
 * focus is inside it, so a grid of videos can be skimmed without opening each. The picture loads only then.
 * `placement` 'cover' lays it over the wrapped poster; 'popover' floats it under a row-shaped card.
 */
export function ContactSheetPeek({
  url,
  label,
  placement = 'cover',
  className,
  children,
}: {
  url: string | null | undefined;
  /** What the video is, for the picture's alt text. */
  label: string;
  placement?: 'cover' | 'popover';
  className?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const src = staticUrl(url);
  return (
    <div
      className={cn('relative', className)}
      onMouseEnter={() => setOpen(true)}
      // A card that appears under a resting pointer gets no mouseenter: the first move over it opens the sheet.
      onMouseMove={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      {children}
      {open && src ? (
        <img
          src={src}
          alt={`Contact sheet: 6 frames of ${label}`}
          data-testid="contact-sheet"
          className={cn(
            'pointer-events-none z-20 bg-zinc-950 object-contain',
            placement === 'cover'
              ? 'absolute inset-0 size-full'
              : 'absolute top-full left-0 mt-2 w-72 max-w-[90vw] rounded-lg border bg-white p-1 shadow-xl',
          )}
        />
      ) : null}
    </div>
  );
}
