import { YEARLY_DISCOUNT_LABEL } from '@hookreel/contracts';
import { Badge } from '@/components/ui/badge';
import type { BillingPeriod } from '@/lib/pricing';
import { cn } from '@/lib/utils';

/** Monthly / yearly switch with the 'Save 17%' badge. A radio group: arrow keys move, Space/Enter select. */
export function BillingToggle({
  value,
  onChange,
  className,
}: {
  value: BillingPeriod;
  onChange: (value: BillingPeriod) => void;
  className?: string;
}) {
  const options: { value: BillingPeriod; label: string }[] = [
    { value: 'monthly', label: 'Monthly' },
    { value: 'yearly', label: 'Yearly' },
  ];
  return (
    <div
      role="radiogroup"
      aria-label="Billing period"
      className={cn('inline-flex items-center gap-1 rounded-full border bg-muted/60 p-1', className)}
      onKeyDown={(e) => {
        if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
          e.preventDefault();
          const next = value === 'monthly' ? 'yearly' : 'monthly';
          onChange(next);
          const el = e.currentTarget.querySelector<HTMLButtonElement>(`[data-value="${next}"]`);
          el?.focus();
        }
      }}
    >
      {options.map((o) => {
        const checked = value === o.value;
        return (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={checked}
            data-value={o.value}
            tabIndex={checked ? 0 : -1}
            onClick={() => onChange(o.value)}
            className={cn(
              'inline-flex items-center gap-2 rounded-full px-4 py-1.5 text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              checked ? 'bg-background text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {o.label}
            {o.value === 'yearly' ? (
              <Badge variant="green" className="px-2 py-0 text-[11px]">
                {YEARLY_DISCOUNT_LABEL}
              </Badge>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
