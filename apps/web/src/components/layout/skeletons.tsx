import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * What a list shows while it loads: `count` placeholders in the list's own layout (`className`), marked busy and
 * named by `label` for screen readers. Each is a Skeleton with `item` as its classes, or what `item` draws.
 */
export function Skeletons({
  count,
  className,
  label,
  item,
}: {
  count: number;
  className: string;
  label?: string;
  item: string | ((i: number) => ReactNode);
}) {
  return (
    <div className={className} aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, i) =>
        typeof item === 'string' ? <Skeleton key={i} className={item} /> : item(i),
      )}
    </div>
  );
}

/** A card's placeholder: its picture (`media`, the Skeleton's classes), then text bars (`lines`) in `body`. */
export function CardSkeleton({
  testId,
  media,
  body,
  lines,
}: {
  testId: string;
  media: string;
  body: string;
  lines: string[];
}) {
  return (
    <div data-testid={testId} className="overflow-hidden rounded-xl border">
      <Skeleton className={media} />
      <div className={body}>
        {lines.map((line) => (
          <Skeleton key={line} className={line} />
        ))}
      </div>
    </div>
  );
}
