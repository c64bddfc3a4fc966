import { createHmac } from 'node:crypto';

/**
 * The key under which an address's trial is remembered, even after the account is deleted: an HMAC with the
 * installation's salt of the lower-cased address without its "+tag", so `ada+1@…` and `ada+2@…` are one
 * address for the trial (they reach one mailbox at every common provider).
 */
export function trialKeyOf(salt: string, email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const local = at > 0 ? address.slice(0, at) : address;
  const domain = at > 0 ? address.slice(at) : '';
  const untagged = local.split('+')[0] || local;
  return createHmac('sha256', salt).update(`${untagged}${domain}`).digest('hex');
}
