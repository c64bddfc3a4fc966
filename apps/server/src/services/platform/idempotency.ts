import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { idempotencyRepository as repo } from '../../db/repositories/idempotency.ts';
import { conflict, unprocessable } from '../../errors.ts';

export const IDEMPOTENCY_KEY_MAX = 200;
/** How long a repeat waits for the first request with its key to finish before answering 409. */
const WAIT_FOR_FIRST_MS = 30_000;

export const IDEMPOTENCY_MESSAGES = {
  invalid: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters`,
  reused: 'This Idempotency-Key was already used for a different request',
  inProgress: 'A request with this Idempotency-Key is still being processed; retry later',
} as const;

/** The header's value, or null when absent; 422 when it is empty, too long, repeated or not printable ASCII. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  if (Array.isArray(raw) || raw.length < 1 || raw.length > IDEMPOTENCY_KEY_MAX || !/^[\x20-\x7e]+$/.test(raw)) {
    throw unprocessable(IDEMPOTENCY_MESSAGES.invalid);
  }
  return raw;
}

export interface IdempotentCall<T> {
  userId: number;
  /** null: no Idempotency-Key header, the call simply runs. */
  key: string | null;
  /** What was called ("POST /hooks/generate-preview"); part of the fingerprint. */
  scope: string;
  /** Everything that makes the request what it is (params, query, body, uploaded files as Buffers). */
  request: unknown;
  /** The status of a successful first response. */
  status: number;
  /** What that response is: a replay reads the stored body back through it. */
  response: z.ZodType<T>;
}

export interface IdempotentOutcome<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * Runs a credit-spending call at most once per (user, Idempotency-Key). The first request claims the key
 * (a unique insert, so of concurrent repeats exactly one wins) and its successful response is stored; repeats
 * of the same request wait for it and get that response back; the same key with a different request is 409.
 * A failed first request frees the key: its transaction rolled back, nothing was spent, a retry runs anew.
 */
export async function idempotent<T>(
  ctx: Pick<AppContext, 'db'>,
  call: IdempotentCall<T>,
  run: () => Promise<T>,
): Promise<IdempotentOutcome<T>> {
  if (call.key === null) return { status: call.status, body: await run(), replayed: false };
  const db = ctx.db.kysely;
  const fingerprint = fingerprintOf(call.scope, call.request);
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (let delay = 20; ; delay = Math.min(250, delay * 2)) {
    const prior = await repo.find(db, call.userId, call.key);
    if (prior) {
      if (prior.fingerprint !== fingerprint) throw conflict(IDEMPOTENCY_MESSAGES.reused);
      if (prior.state === 'done' && prior.response_status !== null && prior.response_body !== null) {
        return {
          status: prior.response_status,
          body: call.response.parse(JSON.parse(prior.response_body)),
          replayed: true,
        };
      }
      if (Date.now() > deadline) throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
      await sleep(delay);
      continue;
    }
    let claimId: number;
    try {
      claimId = await repo.claim(db, { user_id: call.userId, key: call.key, scope: call.scope, fingerprint });
    } catch (err) {
      if (isUniqueViolation(err)) continue; // a concurrent repeat claimed it first: wait for its answer
      throw err;
    }
    let body: T;
    try {
      body = await run();
    } catch (err) {
      await repo.abandon(db, claimId).catch(() => undefined);
      throw err;
    }
    await repo.complete(db, claimId, call.status, JSON.stringify(body));
    return { status: call.status, body, replayed: false };
  }
}

/** sha256 over the scope and a canonical JSON of the request (sorted keys; Buffers by their own sha256). */
export function fingerprintOf(scope: string, request: unknown): string {
  return createHash('sha256')
    .update(scope)
    .update('\n')
    .update(JSON.stringify(canonical(request)) ?? 'null')
    .digest('hex');
}

function canonical(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return { sha256: createHash('sha256').update(v).digest('hex') };
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, canonical(x)]),
    );
  }
  return v;
}
