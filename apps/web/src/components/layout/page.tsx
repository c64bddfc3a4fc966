import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** The content column of a protected screen. */
export function Page({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10', className)} {...props} />;
}

export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="min-w-0 space-y-1.5">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
        {description ? <p className="text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A neutral "work in progress" panel for screens another feature will fill in. */
export function PendingPanel({ children }: { children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed bg-muted/40 p-10 text-center text-sm text-muted-foreground">
      {children ?? 'This screen is being built.'}
    </div>
  );
}
