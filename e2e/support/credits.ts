import type { Page } from '@playwright/test';

export interface LedgerEntry {
  kind: string;
  change: number;
  reason: string;
  job_id: number | null;
}

/** The user's newest ledger rows as the API serves them (the same call /credits/history makes). */
export async function ledger(page: Page): Promise<LedgerEntry[]> {
  return page.evaluate(async () => {
    const res = await fetch('/api/credits/ledger', {
      headers: { authorization: `Bearer ${localStorage.getItem('access_token') ?? ''}` },
    });
    return ((await res.json()) as { entries: LedgerEntry[] }).entries;
  });
}

/** How many holds the ledger shows for one operation ('Product-in-hand merge', 'Hook-pack previews', …). */
export async function holdsFor(page: Page, reason: string): Promise<number> {
  return (await ledger(page)).filter((e) => e.kind === 'hold' && e.reason === reason).length;
}

/** The balance in the sidebar. */
export const balance = (page: Page) => page.getByTestId('credits-balance').first();
