import { cn } from '@/lib/utils';

export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand-gradient shadow-sm',
        className,
      )}
    >
      <svg viewBox="0 0 24 24" className="size-4 translate-x-[1px] fill-white">
        <path d="M7 4.8v14.4a.8.8 0 0 0 1.23.67l11-7.2a.8.8 0 0 0 0-1.34l-11-7.2A.8.8 0 0 0 7 4.8z" />
      </svg>
    </span>
  );
}

export function Logo({ className, textClassName }: { className?: string; textClassName?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <LogoMark />
      <span className={cn('text-lg font-bold tracking-tight', textClassName)}>Hookreel</span>
    </span>
  );
}
