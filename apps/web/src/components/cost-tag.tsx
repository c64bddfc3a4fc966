import { creditsLabel } from '@hookreel/contracts';
import { cn } from '@/lib/utils';

/**
 * The price on a spending button, from the server's price list: "· 12.00 credits". Part of the button's name,
 * so a screen reader hears the cost too. Null while the price list loads: nothing is shown rather than a guess.
 */
export function CostTag({ credits, className }: { credits: number | null; className?: string }) {
  if (credits === null) return null;
  return (
    <span data-testid="cost" className={cn('font-normal tabular-nums opacity-80', className)}>
      · {creditsLabel(credits)}
    </span>
  );
}
