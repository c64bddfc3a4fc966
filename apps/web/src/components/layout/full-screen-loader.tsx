import { Loader2Icon } from 'lucide-react';

/** The guard's full-screen 'Loading...' message (docs/product.md#shell). */
export function FullScreenLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-svh w-full items-center justify-center gap-3 text-muted-foreground"
    >
      <Loader2Icon className="size-5 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function PageLoader() {
  return (
    <div
      role="status"
      aria-label="Loading page"
      className="flex w-full flex-1 items-center justify-center py-24 text-muted-foreground"
    >
      <Loader2Icon className="size-6 animate-spin" aria-hidden="true" />
    </div>
  );
}
