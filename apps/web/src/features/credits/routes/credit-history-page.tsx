import { formatCredits, LEDGER_KIND_LABELS, type LedgerEntry, type LedgerKind } from '@hookreel/contracts';
import { ArrowLeftIcon, Loader2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { Skeletons } from '@/components/layout/skeletons';
import { ButtonLink } from '@/components/button-link';
import { ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useLedger } from '@/lib/api/credits';
import { useAuth } from '@/lib/auth';

const KIND_VARIANT: Record<LedgerKind, 'green' | 'blue' | 'gray' | 'yellow'> = {
  grant: 'green',
  purchase: 'green',
  refund: 'green',
  release: 'blue',
  hold: 'yellow',
  capture: 'gray',
  take: 'yellow',
  expire: 'gray',
};

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "+5.00", "−1.00", or "1.00 held" for a capture, which spends what a hold already set aside. */
function changeText(e: LedgerEntry): string {
  if (e.change === 0) return `${formatCredits(e.amount)} from hold`;
  return `${e.change > 0 ? '+' : '−'}${formatCredits(Math.abs(e.change))}`;
}

function Subject({ e }: { e: LedgerEntry }) {
  if (e.job_id !== null) {
    return (
      <Link className="text-primary underline-offset-4 hover:underline" to={`/jobs/${e.job_id}`}>
        Job #{e.job_id}
      </Link>
    );
  }
  if (e.hook_pack_id !== null) {
    return (
      <Link className="text-primary underline-offset-4 hover:underline" to={`/hook-packs/jobs/${e.hook_pack_id}`}>
        Hook pack #{e.hook_pack_id}
      </Link>
    );
  }
  return <span className="text-muted-foreground">—</span>;
}

/** Holds of character and preview jobs belong to a pack as much as to their job: show both links. */
function Links({ e }: { e: LedgerEntry }) {
  return (
    <span className="flex flex-wrap gap-x-3">
      <Subject e={e} />
      {e.job_id !== null && e.hook_pack_id !== null ? (
        <Link className="text-primary underline-offset-4 hover:underline" to={`/hook-packs/jobs/${e.hook_pack_id}`}>
          Pack #{e.hook_pack_id}
        </Link>
      ) : null}
    </span>
  );
}

/** /credits/history: every movement of the user's credits, newest first, with the balance after each. */
export function CreditHistoryPage() {
  const { user } = useAuth();
  const ledger = useLedger();
  const entries = ledger.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <Page className="max-w-5xl">
      <PageHeader
        title="Credit history"
        description={
          <>
            Balance: <span className="font-mono font-semibold tabular-nums">{formatCredits(user?.credits)}</span>{' '}
            credits. Every grant, purchase, hold, charge, release and refund.
          </>
        }
        actions={
          <ButtonLink to="/credits" variant="outline">
            <ArrowLeftIcon aria-hidden="true" /> Plans and credits
          </ButtonLink>
        }
      />
      {ledger.isError ? <ErrorBanner>Failed to load credit history. Please try again.</ErrorBanner> : null}
      {ledger.isPending ? (
        <Skeletons count={6} className="space-y-2" label="Loading credit history" item="h-12 w-full" />
      ) : entries.length === 0 && !ledger.isError ? (
        <p className="rounded-xl border border-dashed p-10 text-center text-sm text-muted-foreground">
          No credit activity yet.
        </p>
      ) : (
        <div className="overflow-hidden rounded-xl border bg-card">
          <table className="w-full text-sm">
            <thead className="hidden bg-muted/50 text-left text-xs tracking-wide text-muted-foreground uppercase md:table-header-group">
              <tr>
                <th className="px-4 py-2 font-medium">Date</th>
                <th className="px-4 py-2 font-medium">Activity</th>
                <th className="px-4 py-2 text-right font-medium">Amount</th>
                <th className="px-4 py-2 text-right font-medium">Balance after</th>
                <th className="px-4 py-2 font-medium">For</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr
                  key={e.id}
                  data-testid="ledger-row"
                  data-kind={e.kind}
                  className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t px-4 py-3 first:border-t-0 md:table-row md:px-0 md:py-0"
                >
                  <td className="text-xs text-muted-foreground md:px-4 md:py-3 md:text-sm md:whitespace-nowrap md:text-foreground">
                    <time dateTime={e.created_at}>{dateTime.format(new Date(e.created_at))}</time>
                  </td>
                  <td className="col-start-1 row-start-2 md:px-4 md:py-3">
                    <span className="flex flex-wrap items-center gap-2">
                      <Badge variant={KIND_VARIANT[e.kind]}>{LEDGER_KIND_LABELS[e.kind]}</Badge>
                      <span>{e.reason}</span>
                    </span>
                  </td>
                  <td
                    className={`col-start-2 row-start-1 text-right font-mono tabular-nums md:px-4 md:py-3 ${e.change > 0 ? 'text-success' : ''}`}
                  >
                    {changeText(e)}
                  </td>
                  <td className="col-start-2 row-start-2 text-right font-mono text-muted-foreground tabular-nums md:px-4 md:py-3 md:text-foreground">
                    <span className="md:hidden">bal. </span>
                    {e.balance_after === null ? '—' : formatCredits(e.balance_after)}
                  </td>
                  <td className="col-span-2 text-xs md:px-4 md:py-3 md:text-sm">
                    <Links e={e} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {ledger.hasNextPage ? (
        <div className="mt-6 flex justify-center">
          <Button variant="outline" onClick={() => void ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>
            {ledger.isFetchingNextPage ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            Load older entries
          </Button>
        </div>
      ) : null}
    </Page>
  );
}
