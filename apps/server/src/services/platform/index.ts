/**
 * Request plumbing every area leans on: idempotent POSTs, pasted image addresses fetched safely, and the
 * nightly sweep of expired rows. Other areas import it only through this file.
 */
export { startHousekeeping } from './housekeeping.ts';
export { IDEMPOTENCY_KEY_MAX, idempotent, parseIdempotencyKey } from './idempotency.ts';
export * from './remote-images.ts';
