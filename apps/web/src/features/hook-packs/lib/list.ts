/** Texts and pure helpers of the hook pack list (docs/product.md#hook-packs). */
export const LIST_TEXT = {
  title: 'Hook Packs',
  description: 'Create packs of short hook videos for your product and test which opening works best.',
  newButton: 'New Hook Pack',
  emptyTitle: 'No Hook Packs Yet',
  emptyText: 'Create your first hook pack to start generating engaging videos',
  emptyButton: 'Create Hook Pack',
  untitled: 'Untitled Hook Pack',
  noImage: 'No product image',
  noDetails: 'No product details provided',
  createdOn: 'Created on',
  viewDetails: 'View Details',
} as const;

const time = (s: string) => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? -Infinity : t;
};

/** Newest first by created_at (client-side sort of the list); unparsable dates go last. */
export function sortNewestFirst<T extends { created_at: string; id: number }>(packs: readonly T[]): T[] {
  return [...packs].sort((a, b) => time(b.created_at) - time(a.created_at) || b.id - a.id);
}

/** 'Month day, year', e.g. 'November 21, 2026'. */
export function formatLongDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }).format(d);
}

export const packName = (name: string | null | undefined) => (name && name.trim() ? name : LIST_TEXT.untitled);
export const packDetails = (details: string | null | undefined) =>
  details && details.trim() ? details : LIST_TEXT.noDetails;
