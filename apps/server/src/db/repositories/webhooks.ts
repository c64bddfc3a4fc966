import type { Selectable } from 'kysely';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../tables/integrations.ts';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export const webhooksRepository = {
  insertEndpoint(db: Executor, e: { userId: number; url: string; secret: string }) {
    return db
      .insertInto('webhook_endpoints')
      .values({ user_id: e.userId, url: e.url, secret: e.secret, created_at: now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  listEndpoints(db: Executor, userId: number): Promise<WebhookEndpointRow[]> {
    return db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  },

  async findEndpoint(db: Executor, userId: number, id: number): Promise<WebhookEndpointRow | null> {
    return firstOrNull(
      db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('user_id', '=', userId),
    );
  },

  /** Deletes the user's endpoint and, by cascade, its deliveries. */
  async deleteEndpoint(db: Executor, userId: number, id: number): Promise<boolean> {
    const res = await db
      .deleteFrom('webhook_endpoints')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  },

  /**
   * One delivery per endpoint and subject: the insert is skipped when the subject was already delivered to this
   * endpoint (two finishers of one pack race here), and null comes back.
   */
  async insertDeliveryOnce(
    db: Executor,
    d: {
      endpointId: number;
      userId: number;
      eventId: string;
      eventType: string;
      subject: string;
      payload: string;
      /** Set to record the event as not sent (endpoint paused, too many waiting): a failed row with this reason. */
      notSent?: string;
    },
  ): Promise<number | null> {
    const row = await db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: d.endpointId,
        user_id: d.userId,
        event_id: d.eventId,
        event_type: d.eventType,
        subject: d.subject,
        payload: d.payload,
        status: d.notSent ? 'failed' : 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: d.notSent ?? null,
        created_at: now(),
        last_attempt_at: null,
        next_attempt_at: d.notSent ? null : now(),
      })
      .onConflict((oc) => oc.columns(['endpoint_id', 'subject']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  },

  /** How many deliveries wait for this endpoint (pending: not yet accepted, retrying). */
  async pendingCount(db: Executor, endpointId: number): Promise<number> {
    const r = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },

  /** A delivered attempt: the endpoint's run of failures ends. */
  async recordEndpointSuccess(db: Executor, endpointId: number): Promise<void> {
    await db
      .updateTable('webhook_endpoints')
      .set({ consecutive_failures: 0 })
      .where('id', '=', endpointId)
      .where('consecutive_failures', '!=', 0)
      .execute();
  },

  /**
   * A failed attempt: one more in the run, and the endpoint paused when the run reaches `pauseAfter`. True only
   * for the one call that paused it (so its owner is told once).
   */
  async recordEndpointFailure(db: Executor, endpointId: number, pauseAfter: number): Promise<boolean> {
    await db
      .updateTable('webhook_endpoints')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', endpointId)
      .execute();
    const paused = await db
      .updateTable('webhook_endpoints')
      .set({ paused_at: now() })
      .where('id', '=', endpointId)
      .where('paused_at', 'is', null)
      .where('consecutive_failures', '>=', pauseAfter)
      .executeTakeFirst();
    return Number(paused.numUpdatedRows) === 1;
  },

  /** The owner's resume: active again with a fresh run of failures. False when it is not theirs. */
  async resumeEndpoint(db: Executor, userId: number, id: number): Promise<WebhookEndpointRow | null> {
    return firstOrNull(
      db
        .updateTable('webhook_endpoints')
        .set({ paused_at: null, consecutive_failures: 0 })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returningAll(),
    );
  },

  /** A paused endpoint's waiting deliveries end as not sent (their jobs find them failed and stop). */
  async failPending(db: Executor, endpointId: number, reason: string): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: reason, next_attempt_at: null })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .execute();
  },

  async findDelivery(db: Executor, id: number): Promise<WebhookDeliveryRow | null> {
    return firstOrNull(db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id));
  },

  /** The user's latest deliveries with their endpoint's URL, newest first. */
  listDeliveries(db: Executor, userId: number, limit: number) {
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select('e.url')
      .where('d.user_id', '=', userId)
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
  },

  async recordAttempt(
    db: Executor,
    id: number,
    a: {
      status: WebhookDeliveryRow['status'];
      attempts: number;
      statusCode: number | null;
      error: string | null;
      nextAttemptAt: string | null;
    },
  ): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({
        status: a.status,
        attempts: a.attempts,
        last_status_code: a.statusCode,
        last_error: a.error,
        last_attempt_at: now(),
        next_attempt_at: a.nextAttemptAt,
      })
      .where('id', '=', id)
      .execute();
  },
};
