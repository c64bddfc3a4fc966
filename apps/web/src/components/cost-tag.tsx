import { creditsLabel } from '@hookreel/contracts';
import { cn } from '@/lib/utils';

/**
 * The price on a spending button, from the contracts price list: "· 12.00 credits". Part of the button's name,
 * so a screen reader hears the cost too.
 */
export function CostTag({ credits, className }: { credits: number; className?: string }) {
  return (
    <span data-testid="cost" className={cn('font-normal tabular-nums opacity-80', className)}>
      · {creditsLabel(credits)}
    </span>
  );
}
