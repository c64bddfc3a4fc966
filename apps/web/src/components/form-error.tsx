import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** What went wrong, read out as it appears (role=alert); nothing while there is nothing to say. */
export function FormError({ id, className, children }: { id?: string; className?: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className={cn('text-sm text-destructive', className)}>
      {children}
    </p>
  );
}
