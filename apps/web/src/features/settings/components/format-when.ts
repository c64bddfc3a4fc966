/** A stored ISO time as people read it here: date and minutes in their own locale. */
export const formatWhen = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
