import { createHmac } from 'node:crypto';
import { canonicalEmail } from './canonical-email.ts';

const hmac = (salt: string, value: string) => createHmac('sha256', salt).update(value).digest('hex');

/**
 * The key under which an address's trial is remembered, even after the account is deleted: an HMAC with the
 * installation's salt of the address's mailbox (canonicalEmail), so `ada.l+2@googlemail.com` and
 * `adal@gmail.com` are one address for the trial (decision 174).
 */
export function trialKeyOf(salt: string, email: string): string {
  return hmac(salt, canonicalEmail(email));
}

/**
 * The key before decision 174 (case and `+tag` folded only). Claims made then stay under it, including those of
 * deleted accounts, so the trial rule checks it too; migration 007 keeps using it as it did when it landed.
 */
export function legacyTrialKeyOf(salt: string, email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const local = at > 0 ? address.slice(0, at) : address;
  const domain = at > 0 ? address.slice(at) : '';
  const untagged = local.split('+')[0] || local;
  return hmac(salt, `${untagged}${domain}`);
}
