import { formatCredits, roundCredits } from '@hookreel/contracts';
import { CoinsIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { estimatePackFrom, useServerPrices } from '@/lib/api/prices';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';

/**
 * What the whole pack costs before its first spend (characters, previews, videos, at the server's prices; no figure until they are known)
 * and what the balance will be after it; short of credits, how many more are needed and where to get them.
 */
export function PackCostEstimate({ characterTypes, className }: { characterTypes: number; className?: string }) {
  const { user } = useAuth();
  const { list } = useServerPrices();
  const types = Math.max(1, characterTypes);
  if (!list) {
    return (
      <CostFrame busy className={className}>
        <p className="text-muted-foreground">Loading prices…</p>
      </CostFrame>
    );
  }
  const e = estimatePackFrom(list, types);
  const balance = user?.credits ?? 0;
  const left = roundCredits(balance - e.total);
  const rows: Array<[string, number]> = [
    [`${e.characterCount} characters (${list.characters_per_type} per type)`, e.characters],
    [`Up to ${e.characterCount} previews`, e.previews],
    [`${list.videos_per_pack} videos`, e.videos],
  ];
  return (
    <CostFrame className={className}>
      <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1">
        {rows.map(([label, cost]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right font-mono tabular-nums">{formatCredits(cost)}</dd>
          </div>
        ))}
        <dt className="border-t pt-1 font-medium">Pack total</dt>
        <dd data-testid="pack-total" className="border-t pt-1 text-right font-mono font-semibold tabular-nums">
          {formatCredits(e.total)} credits
        </dd>
        <dt className="text-muted-foreground">Your balance after the pack</dt>
        <dd
          data-testid="pack-left"
          className={cn('text-right font-mono tabular-nums', left < 0 && 'font-semibold text-destructive')}
        >
          {left < 0 ? `−${formatCredits(-left)}` : formatCredits(left)}
        </dd>
      </dl>
      {left < 0 ? (
        <p role="status" className="mt-3 text-destructive">
          You need {formatCredits(-left)} more credits for the whole pack.{' '}
          <Link to="/credits" className="font-medium underline underline-offset-4">
            Get credits
          </Link>
        </p>
      ) : null}
    </CostFrame>
  );
}

/** The estimate's box and heading, busy while the prices load. */
function CostFrame({ busy, className, children }: { busy?: boolean; className?: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="pack-cost-title"
      aria-busy={busy ? 'true' : undefined}
      data-testid="pack-cost"
      className={cn('rounded-xl border bg-muted/30 p-4 text-sm', className)}
    >
      <h3 id="pack-cost-title" className="mb-2 flex items-center gap-2 font-medium">
        <CoinsIcon className="size-4 text-primary" aria-hidden="true" /> What this pack costs
      </h3>
      {children}
    </section>
  );
}
