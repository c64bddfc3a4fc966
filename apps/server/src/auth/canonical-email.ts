/**
 * The mailbox an address delivers to, for rules that count mailboxes rather than spellings (the free trial,
 * decision 174). Users keep seeing and signing in with the address they typed; this form is stored beside it.
 *
 * - Case and surrounding spaces never matter; a trailing dot on the domain is dropped.
 * - Domains that are one provider's aliases become its main domain (googlemail.com is gmail.com).
 * - Gmail ignores dots in the local part.
 * - A "+tag" is dropped everywhere: the big providers (Gmail, Outlook, iCloud, Fastmail, Proton, Yahoo's
 *   newer addresses) and the usual servers (Postfix, Exchange) deliver `name+tag` to `name`. Where a site gives
 *   `+` another meaning, two people lose at worst one trial between them, which is the cheaper mistake.
 */

/** Domains that are another provider's alias, mapped to the provider's main domain. */
const DOMAIN_ALIASES: Readonly<Record<string, string>> = {
  'googlemail.com': 'gmail.com',
};

/** Providers whose local part ignores dots. */
const DOTS_IGNORED = new Set(['gmail.com']);

export function canonicalEmail(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0 || at === lower.length - 1) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1).replace(/\.+$/, '');
  domain = DOMAIN_ALIASES[domain] ?? domain;
  local = local.split('+')[0] || local;
  if (DOTS_IGNORED.has(domain)) local = local.replaceAll('.', '') || local;
  return `${local}@${domain}`;
}
