import { now } from '../database.ts';
import type { SubscriptionsTable } from '../tables/billing.ts';
import type { Executor } from '../database.ts';

type SubscriptionFields = Pick<
  SubscriptionsTable,
  'plan' | 'interval' | 'status' | 'cancel_at_period_end' | 'current_period_end'
>;

/** Payment customers, subscriptions and the webhook events already applied. */
export const billingRepository = {
  async customerOf(db: Executor, userId: number): Promise<string | null> {
    const row = await db
      .selectFrom('billing_customers')
      .select('customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.customer_id ?? null;
  },

  async userOfCustomer(db: Executor, customerId: string): Promise<number | null> {
    const row = await db
      .selectFrom('billing_customers')
      .select('user_id')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return row?.user_id ?? null;
  },

  /** Keeps the first customer recorded for a user (two concurrent checkouts): returns the one that is stored. */
  async saveCustomer(db: Executor, userId: number, customerId: string): Promise<string> {
    await db
      .insertInto('billing_customers')
      .values({ user_id: userId, customer_id: customerId, created_at: now() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return (await this.customerOf(db, userId)) ?? customerId;
  },

  /** Each of these users' plan: their newest subscription that is not cancelled; absent without one. */
  async activePlans(db: Executor, userIds: readonly number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('subscriptions')
      .select(['user_id', 'plan'])
      .where('user_id', 'in', [...userIds])
      .where('status', '!=', 'canceled')
      .orderBy('id', 'asc')
      .execute();
    // Ascending ids: the newest of a user's subscriptions is set last.
    return new Map(rows.map((r) => [r.user_id, r.plan] as const));
  },

  /** The user's newest subscription that is not cancelled, else their newest one. */
  async currentSubscription(db: Executor, userId: number) {
    const rows = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.find((r) => r.status !== 'canceled') ?? rows[0] ?? null;
  },

  async findByExternalId(db: Executor, externalId: string) {
    return (
      (await db.selectFrom('subscriptions').selectAll().where('external_id', '=', externalId).executeTakeFirst()) ??
      null
    );
  },

  /** Insert or update the subscription known to the provider by `externalId`. */
  async upsertExternal(
    db: Executor,
    userId: number,
    externalId: string,
    fields: Partial<SubscriptionFields> & Pick<SubscriptionFields, 'plan' | 'interval'>,
  ): Promise<void> {
    const t = now();
    await db
      .insertInto('subscriptions')
      .values({
        user_id: userId,
        provider: 'stripe',
        external_id: externalId,
        status: 'active',
        cancel_at_period_end: 0,
        current_period_end: null,
        ...fields,
        created_at: t,
        updated_at: t,
      })
      .onConflict((oc) =>
        oc.column('external_id').doUpdateSet({
          ...fields,
          updated_at: t,
        }),
      )
      .execute();
  },

  async updateExternal(db: Executor, externalId: string, fields: Partial<SubscriptionFields>): Promise<boolean> {
    const res = await db
      .updateTable('subscriptions')
      .set({ ...fields, updated_at: now() })
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  /** A demo subscription replaces any earlier demo one of the user. */
  async replaceDemo(db: Executor, userId: number, fields: Pick<SubscriptionFields, 'plan' | 'interval'>) {
    const t = now();
    await db
      .updateTable('subscriptions')
      .set({ status: 'canceled', updated_at: t })
      .where('user_id', '=', userId)
      .where('provider', '=', 'demo')
      .where('status', '!=', 'canceled')
      .execute();
    await db
      .insertInto('subscriptions')
      .values({
        user_id: userId,
        provider: 'demo',
        external_id: null,
        status: 'active',
        cancel_at_period_end: 0,
        current_period_end: null,
        ...fields,
        created_at: t,
        updated_at: t,
      })
      .execute();
  },

  /** Claims a webhook event id; false when it was applied before (a replay). */
  async claimEvent(db: Executor, eventId: string, type: string): Promise<boolean> {
    const row = await db
      .insertInto('billing_events')
      .values({ event_id: eventId, type, created_at: now() })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async hasPurchased(db: Executor, userId: number): Promise<boolean> {
    const row = await db
      .selectFrom('credit_entries')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'purchase')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
};
